"""Drive JupyterLab in a browser page as a person would.

Used by tests/browser/ (`make test-browser`), which runs it with
pytest-playwright in the system Chromium. It starts JupyterLab on a copy
of notebooks/ (autosave never touches the project's files), the Portuguese
edition in a JupyterLab set to Portuguese (`make lab-pt`'s setting); and,
in a notebook's page: checks that its saved explorer shows as a widget,
clears the outputs and runs all cells from the menus (items found by the
command they run, so the same steps work in both languages), fails on a
cell error, then works each control of the explorer with the mouse and
keyboard (drags a slider, types a sentence and presses Enter, picks another
option) and checks that what it shows changed; chooses an answer of each
quiz (radio buttons alone in their output) and checks that its verdict and
explanation show. Every label of the explorer must show whole, every
slider be long enough to drag, and the console hold no widget error.
Screenshots of the explorer, the quizzes and every figure are saved.
"""

import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import suppress
from pathlib import Path

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tools.project import LOCALE, NOTEBOOKS, ROOT

JUPYTER = Path(sys.executable).parent / "jupyter"
# typed into a text box: sentences of the training data, the first one
# that differs from the box's text
SENTENCES = ("i'm home .", "go .")
RUN_TIMEOUT_S = 1200  # a whole notebook, on a slow CPU
CHANGE_TIMEOUT_S = 120  # one explorer update
# errors in the page that mean a widget is broken
WIDGET_ERROR = re.compile(r"widget|comm|model not found", re.I)
ERROR_TEXT = re.compile(r"Traceback|^\s*\w*(Error|Exception)\b", re.M)
OUTPUT = '.jp-OutputArea-output[data-mime-type="{}"]'
STDERR = OUTPUT.format("application/vnd.jupyter.stderr")
TEXT_PLAIN = OUTPUT.format("text/plain")
# JupyterLab settings for the test: no news pop-up over the notebook, and
# every cell in the page (by default only the visible ones are)
LAB_SETTINGS = {
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {
        "fetchNews": "false",
        "checkForUpdates": False,
    },
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {
        "windowingMode": "none"
    },
}
PORTUGUESE = "pt_BR"  # the Portuguese edition's JupyterLab locale
# make lab-pt's settings: JupyterLab's interface in Portuguese
PORTUGUESE_SETTINGS = LOCALE / "jupyterlab-settings"
LABELS = ".widget-label, .widget-label-basic"
CONTROLS = (
    ".widget-slider, .widget-text, .widget-textarea, .widget-dropdown, "
    ".widget-checkbox, .widget-toggle-buttons, .widget-radio-box"
)


class BrowserTestError(AssertionError):
    """What a person would see go wrong in one notebook."""


def free_port():
    """Return a TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def served_name(path):
    """Return the path under which JupyterLab serves a notebook."""
    if path.resolve().is_relative_to(NOTEBOOKS.resolve()):
        return path.resolve().relative_to(NOTEBOOKS.resolve()).as_posix()
    return path.name  # from outside notebooks/: copied by name


def copy_notebooks(paths, workdir):
    """Copy notebooks/ (and any other notebook asked for) into workdir."""
    served = workdir / "notebooks"
    ignore = shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__")
    shutil.copytree(NOTEBOOKS, served, ignore=ignore)
    # notebooks that look for ../data find the project's data
    (workdir / "data").symlink_to(ROOT / "data", target_is_directory=True)
    for path in paths:
        if not path.resolve().is_relative_to(NOTEBOOKS.resolve()):
            shutil.copy2(path, served / path.name)
    return served


def write_lab_settings(settings_dir, locale="en"):
    """Write the JupyterLab user settings used during the test."""
    if locale == PORTUGUESE:
        shutil.copytree(PORTUGUESE_SETTINGS, settings_dir, dirs_exist_ok=True)
    for name, values in LAB_SETTINGS.items():
        path = settings_dir / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(values), encoding="utf-8")


class LabServer:
    """JupyterLab on a free local port, with a random token."""

    def __init__(self, root_dir, workdir, log_path, locale="en"):
        self.port = free_port()
        self.token = secrets.token_hex(16)
        settings = workdir / f"settings-{locale}"
        write_lab_settings(settings, locale)
        cmd = [
            str(JUPYTER),
            "lab",
            "--no-browser",
            "--ServerApp.ip=127.0.0.1",
            f"--ServerApp.port={self.port}",
            "--ServerApp.port_retries=0",
            f"--IdentityProvider.token={self.token}",
            f"--ServerApp.root_dir={root_dir}",
            f"--LabApp.user_settings_dir={settings}",
            f"--LabApp.workspaces_dir={workdir / f'workspaces-{locale}'}",
            # window.jupyterapp: the cells' state, read by the checks
            "--LabApp.expose_app_in_browser=True",
        ]
        if os.geteuid() == 0:  # containers and CI run as root
            cmd.append("--allow-root")
        self.log = open(log_path, "w", encoding="utf-8")
        self.proc = subprocess.Popen(
            cmd,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )

    def api(self, path, method="GET"):
        """Return the JSON answer of the server's REST API at path."""
        request = urllib.request.Request(
            f"http://127.0.0.1:{self.port}/api/{path}",
            method=method,
            headers={"Authorization": f"token {self.token}"},
        )
        with urllib.request.urlopen(request, timeout=10) as answer:
            body = answer.read()
        return json.loads(body) if body else None

    def wait_ready(self, timeout_s=120):
        """Return once the server answers; raise if it stopped or hangs."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(
                    f"JupyterLab exited with code {self.proc.returncode}; "
                    f"see {self.log.name}"
                )
            with suppress(OSError):
                self.api("status")
                return
            time.sleep(0.5)
        raise RuntimeError(f"JupyterLab did not answer in {timeout_s} s")

    def url(self, name):
        """Return the address that opens notebook `name` in JupyterLab."""
        # a workspace of its own, so no tab of an earlier notebook reopens
        return (
            f"http://127.0.0.1:{self.port}/lab/workspaces/{Path(name).stem}"
            f"/tree/{name}?token={self.token}"
        )

    def shutdown_kernels(self):
        """Shut down every kernel of the server (best effort)."""
        with suppress(OSError):
            for kernel in self.api("kernels"):
                self.api(f"kernels/{kernel['id']}", method="DELETE")

    def stop(self):
        """Stop the server and everything in its process group."""
        if self.proc.poll() is None:
            self.shutdown_kernels()
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        self.log.close()


def click_menu(page, menu, command):
    """Click the item of a main menu that runs a command, as a person would;
    return "Menu > Item" as the page shows them, in its language.

    The menu is the one whose id is jp-mainmenu-MENU ("edit", "run"), the
    item the one that runs the command ("runmenu:run-all"): both
    are the same in every language.
    """
    opened = page.locator(f"#jp-mainmenu-{menu}")
    for title in page.locator(".lm-MenuBar-item").all():
        title.click()
        if opened.is_visible():
            item = opened.locator(f'.lm-Menu-item[data-command="{command}"]')
            label = item.locator(".lm-Menu-itemLabel").inner_text()
            shown = f"{title.inner_text()} > {label}"
            item.click()
            return shown
        page.keyboard.press("Escape")
    raise BrowserTestError(f"no menu jp-mainmenu-{menu} in the menu bar")


# the open notebook's kernel status as JupyterLab shows it ("idle", "busy",
# "initializing", "unknown", ...)
KERNEL_JS = """() => jupyterapp.shell.currentWidget?.sessionContext
    ?.kernelDisplayStatus ?? 'no notebook'"""


def wait_kernel_idle(page, timeout_s):
    """Wait until the notebook's kernel is idle; pick the kernel if asked.

    JupyterLab asks which kernel to start when it cannot tell; a person
    clicks "Select" to take the one it proposes, and so does this.
    """
    deadline = time.monotonic() + timeout_s
    dialog = page.locator(".jp-Dialog").first
    while page.evaluate(KERNEL_JS) != "idle":
        # the kernel dialog, in any language: a list of kernels to pick
        if dialog.locator("select").count():
            dialog.locator(".jp-mod-accept").click()
        else:
            check_dialog(page)
        if time.monotonic() > deadline:
            raise BrowserTestError(
                f"kernel not idle after {timeout_s} s: "
                + page.evaluate(KERNEL_JS)
            )
        time.sleep(0.5)


# the code cells of the open notebook, read from JupyterLab's model
CELLS_JS = """() => jupyterapp.shell.currentWidget.content.widgets
    .filter(cell => cell.model.type === 'code')
    .map(cell => ({
        source: cell.model.sharedModel.getSource(),
        count: cell.model.executionCount,
        running: cell.model.executionState === 'running',
        errors: cell.model.outputs.toJSON()
            .filter(out => out.output_type === 'error')
            .map(out => out.ename + ': ' + out.evalue + '\\n'
                 + out.traceback.slice(-3).join('\\n'))}))"""
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def check_dialog(page):
    """Raise if JupyterLab shows a dialog (kernel died, and the like)."""
    dialog = page.locator(".jp-Dialog")
    if dialog.count():
        raise BrowserTestError(
            "JupyterLab shows a dialog: " + dialog.first.inner_text()
        )


def run_all_cells(page, timeout_s):
    """Clear the outputs, run all cells from the Run menu, wait for idle;
    raise if a cell failed or was not run, else return the menu items
    clicked, as shown."""
    wait_kernel_idle(page, 300)
    clicked = [click_menu(page, "edit", "editmenu:clear-all")]
    page.wait_for_function(
        "() => (" + CELLS_JS + ")().every(c => c.count === null)",
        timeout=30_000,
    )
    clicked.append(click_menu(page, "run", "runmenu:run-all"))
    deadline = time.monotonic() + timeout_s
    page.wait_for_function(
        "() => (" + CELLS_JS + ")().some(c => c.running || c.count)",
        timeout=60_000,
    )
    while any(cell["running"] for cell in page.evaluate(CELLS_JS)):
        check_dialog(page)
        if time.monotonic() > deadline:
            raise BrowserTestError(f"cells still running after {timeout_s} s")
        time.sleep(1)
    wait_kernel_idle(page, 60)
    not_run = []
    for number, cell in enumerate(page.evaluate(CELLS_JS), start=1):
        if cell["errors"]:
            raise BrowserTestError(
                f"code cell {number} failed: "
                + ANSI.sub("", cell["errors"][0])[:1500]
            )
        if cell["source"].strip() and cell["count"] is None:
            not_run.append(number)
    if not_run:
        raise BrowserTestError(
            f"code cells {not_run} did not run (no error shown)"
        )
    return clicked


def find_explorer(page):
    """Return the explorer element; raise if it is not a live widget.

    The explorer is the output area of the last cell that shows an
    ipywidgets control: an `interact`, or controls displayed beside an
    `interactive_output`.
    """
    explorers = page.locator(".jp-Cell-outputArea", has=page.locator(CONTROLS))
    # if none shows, reported below with what the page shows instead
    with suppress(PlaywrightTimeout):
        explorers.first.wait_for(timeout=30_000)
    text = "\n".join(page.locator(".jp-OutputArea-output").all_inner_texts())
    if "Error displaying widget" in text:
        raise BrowserTestError("the page says: Error displaying widget")
    if match := re.search(r"(interactive|[HV]Box)\(children=.{0,80}", text):
        raise BrowserTestError(f"explorer shown as text: {match.group(0)}")
    if not explorers.count():
        raise BrowserTestError("no explorer (ipywidgets control) found")
    explorer = explorers.last
    explorer.scroll_into_view_if_needed()
    return explorer


def control_name(control):
    """Return the label a person reads beside a control."""
    for label in control.locator(LABELS).all():
        name = label.inner_text().strip("\u200b \n")
        if name:
            return name
    return control.get_attribute("class").split()[-1]


# each non-empty label shown in the explorer: its text, the width it needs
# and the width it has (ipywidgets cuts a longer text short with an ellipsis)
LABELS_JS = """els => els.filter(el => el.offsetParent !== null).map(el => ({
    text: el.innerText.replace(/\u200b/g, '').trim(),
    needs: el.scrollWidth, has: el.clientWidth})).filter(l => l.text)"""


def check_labels_fit(explorer):
    """Raise if a label of the explorer is cut short; return a note."""
    labels = explorer.locator(LABELS).evaluate_all(LABELS_JS)
    cut = [
        f"{label['text']!r} needs {label['needs']} px, has {label['has']} px"
        for label in labels
        if label["needs"] > label["has"] + 1
    ]
    if cut:
        raise BrowserTestError(
            "label cut short (widen its description_width): " + "; ".join(cut)
        )
    return "labels whole: " + ", ".join(
        f"{label['text'][:40]!r} {label['needs']}/{label['has']} px"
        for label in labels
    )


def drag_slider(page, control):
    """Drag a slider's handle by a third of its track; raise if its readout
    did not change, return it before and after."""
    readout = control.locator(".widget-readout").first
    before = readout.inner_text()
    track = control.locator(".noUi-target").first.bounding_box()
    if track["width"] < 100:  # a shorter track cannot be dragged
        raise BrowserTestError(
            f"slider {control_name(control)!r} is {track['width']:.0f} px "
            f"long: too short to drag (give it a wider layout)"
        )
    box = control.locator(".noUi-handle").first.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    # towards the side with more room
    room_right = track["x"] + track["width"] - x
    step = track["width"] / 3 * (1 if room_right > track["width"] / 2 else -1)
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + step, y, steps=12)
    page.mouse.up()
    after = readout.inner_text()
    if after == before:
        raise BrowserTestError(
            f"slider {control_name(control)!r} did not move when dragged"
        )
    return f"{before} -> {after}"


def type_sentence(page, control):
    """Type a sentence over a text box's text (or step a number box up) and
    press Enter; return the box's new text."""
    box = control.locator("input, textarea").first
    box.click()
    if box.get_attribute("type") == "number":
        page.keyboard.press("ArrowUp")
    else:
        text = next(s for s in SENTENCES if s != box.input_value())
        page.keyboard.press("ControlOrMeta+A")
        page.keyboard.type(text, delay=40)
    page.keyboard.press("Enter")
    return box.input_value()


def pick_other(control):
    """Choose another option of a drop-down, checkbox or button row."""
    select = control.locator("select").first
    checkbox = control.locator("input[type=checkbox]").first
    if select.count():
        options = select.locator("option").all_inner_texts()
        # the label shown, not the value attribute (ipywidgets may number
        # its options)
        current = select.evaluate(
            "s => s.selectedIndex < 0 ? null : s.options[s.selectedIndex].text"
        )
        choice = next(o for o in options if o != current)
        select.select_option(label=choice)
        return choice
    if checkbox.count():
        checkbox.click()
        return "toggled"
    unpicked = "button:not(.mod-active), input[type=radio]:not(:checked)"
    option = control.locator(unpicked).first
    option.click()
    return option.inner_text() or "clicked"


# a quiz of d2l_attention.exercises: radio buttons, and the verdict under
# them once one is chosen; no other control
QUIZ_CONTROLS = ".widget-slider, .widget-text, .widget-dropdown"
VERDICT = re.compile(r"^\s*[✔✘] \w")


def check_quizzes(page, out_dir):
    """Choose an answer of every quiz; raise unless its verdict shows."""
    quizzes = page.locator(
        ".jp-Cell-outputArea",
        has=page.locator(".widget-radio-box"),
        has_not=page.locator(QUIZ_CONTROLS),
    ).all()
    notes = []
    for i, quiz in enumerate(quizzes, start=1):
        quiz.scroll_into_view_if_needed()
        choice = quiz.locator(".widget-radio-box label").last
        text = choice.inner_text()
        choice.click()
        verdict = quiz.locator(".widget-html")
        deadline = time.monotonic() + CHANGE_TIMEOUT_S
        while not VERDICT.match(verdict.inner_text()):
            if time.monotonic() > deadline:
                raise BrowserTestError(
                    f"quiz {i}: choosing {text!r} showed no verdict"
                )
            time.sleep(0.25)
        quiz.screenshot(path=out_dir / f"quiz-{i}.png")
        notes.append(f"quiz {i}: {text!r}: {verdict.inner_text()[:60]!r}")
    return notes


# what an explorer shows, as opposed to its controls
SHOWN = ".widget-output, .widget-image, .widget-html, .widget-htmlmath"
# what a person sees there: the text, and each image's data
SHOWN_JS = """els => els.map(el => el.innerText + [
    ...el.querySelectorAll('img')].map(img => img.src).join('|')).join('|')"""


def shown_html(explorer):
    """Return what the explorer shows (text and figures), as a string."""
    return explorer.locator(SHOWN).evaluate_all(SHOWN_JS)


def wait_settled(explorer, deadline):
    """Wait until what the explorer shows stays the same for a second;
    return its HTML then."""
    stable, last = 0, None
    while stable < 4 and time.monotonic() < deadline:
        html = shown_html(explorer)
        stable = stable + 1 if html == last else 0
        last = html
        time.sleep(0.25)
    return last


def wait_output_change(page, explorer, before, timeout_s):
    """Wait until the explorer has answered a control and settled; return
    whether what it shows differs from `before`.

    Redrawing the same figure clears it for a moment: only the settled
    result counts as a change.
    """
    deadline = time.monotonic() + timeout_s
    while shown_html(explorer) == before:
        if time.monotonic() > deadline:
            return False
        time.sleep(0.25)
    wait_settled(explorer, deadline)
    wait_kernel_idle(page, timeout_s)
    return wait_settled(explorer, deadline) != before


def check_explorer_outputs(explorer, name):
    """Raise if the explorer shows an error after working control `name`,
    or a returned value as text (a repr).

    Printed text is stdout; a text/plain output in an explorer is the
    repr of what its callback returned, such as a raw tensor.
    """
    texts = explorer.locator(STDERR).all_inner_texts()
    if errors := [text for text in texts if ERROR_TEXT.search(text)]:
        raise BrowserTestError(
            f"explorer error after working {name!r}: {errors[0][-1500:]}"
        )
    reprs = explorer.locator(TEXT_PLAIN)
    if reprs.count():
        raise BrowserTestError(
            "the explorer shows a returned value as text (its callback "
            f"should return None): {reprs.first.inner_text()[:120]!r}"
        )


def explore(page, explorer, out_dir):
    """Work every control of the explorer; return notes on each."""
    if not explorer.locator(SHOWN).count():
        raise BrowserTestError("the explorer shows no output area")
    explorer.screenshot(path=out_dir / "explorer-before.png")
    notes, unchanged = [check_labels_fit(explorer)], []
    for i, control in enumerate(explorer.locator(CONTROLS).all(), start=1):
        before = shown_html(explorer)
        name = control_name(control)
        classes = control.get_attribute("class")
        if "widget-slider" in classes:
            shown = drag_slider(page, control)
        elif "widget-text" in classes:
            shown = repr(type_sentence(page, control))
        else:
            shown = pick_other(control)
        change = wait_output_change(page, explorer, before, CHANGE_TIMEOUT_S)
        explorer.screenshot(path=out_dir / f"explorer-after-{i}.png")
        check_explorer_outputs(explorer, name)
        notes.append(
            f"{name}: {shown}, "
            + ("output changed" if change else "OUTPUT UNCHANGED")
        )
        if not change:
            unchanged.append(notes[-1])
    if unchanged:
        raise BrowserTestError(
            "working a control of the explorer changed nothing: "
            + "; ".join(unchanged)
        )
    return notes


# per figure of the notebook: the prompt of its cell, its size as drawn
# (natural) and as shown (client)
FIGURES_JS = """els => els.map(img => {
    const prompt = img.closest('.jp-Cell')?.querySelector('.jp-InputPrompt');
    return {cell: prompt ? prompt.innerText.replace(':', '').trim() : '?',
            natural: [img.naturalWidth, img.naturalHeight],
            shown: [img.clientWidth, img.clientHeight]};
})"""
# text outputs a student should not see: the repr of a plotting object
RAW_REPR = re.compile(
    r"<(Figure size [^>]*|[\w.]+ (object )?at 0x[0-9a-f]+)>"
    r"|^(Text|Line2D)\(.*\)$|^\[<matplotlib",
    re.M,
)


def save_figures(page, out_dir):
    """Save a screenshot of every figure; return notes on their sizes."""
    images = page.locator(".jp-OutputArea-output img")
    notes = []
    for i, info in enumerate(images.evaluate_all(FIGURES_JS)):
        # the screenshot scrolls the figure into view first
        images.nth(i).screenshot(path=out_dir / f"figure-{i + 1:02d}.png")
        (width, height), (shown_w, shown_h) = info["natural"], info["shown"]
        where = f"figure {i + 1} (cell {info['cell']}, {width}x{height} px)"
        if shown_w < 0.95 * width:
            notes.append(f"note: {where} shrunk to {shown_w} px wide")
        if shown_h > 800:
            notes.append(f"note: {where} is taller than a laptop window")
        if max(shown_w, shown_h) < 200:
            notes.append(f"note: {where} is very small")
    return [f"{images.count()} figures saved"] + notes


def raw_reprs(page):
    """Return notes on text outputs that show a raw object repr."""
    texts = page.locator(TEXT_PLAIN).all_inner_texts()
    matches = filter(None, map(RAW_REPR.search, texts))
    return [f"note: raw repr shown: {m.group(0)[:100]!r}" for m in matches]


def check_notebook(page, url, out_dir):
    """Open one notebook, run it and work its explorer; return notes."""
    messages = []  # (type, text) of each console message and page error
    page.on("console", lambda msg: messages.append((msg.type, msg.text)))
    page.on("pageerror", lambda error: messages.append(("error", str(error))))
    page.goto(url)
    page.locator(".jp-NotebookPanel .jp-Cell").first.wait_for(timeout=120_000)
    try:  # the saved explorer of a trusted notebook is a widget
        find_explorer(page)
    except BrowserTestError as error:
        raise BrowserTestError(
            f"before Run All, in the saved outputs: {error}"
        ) from error
    page.screenshot(path=out_dir / "saved-explorer.png")
    clicked = run_all_cells(page, RUN_TIMEOUT_S)
    explorer = find_explorer(page)
    notes = ["menus: " + ", ".join(clicked)] + explore(page, explorer, out_dir)
    notes += check_quizzes(page, out_dir)
    explorer.scroll_into_view_if_needed()
    page.screenshot(path=out_dir / "page-at-explorer.png")
    notes += save_figures(page, out_dir) + raw_reprs(page)
    errors = [text for kind, text in messages if kind == "error"]
    widget_errors = [text for text in errors if WIDGET_ERROR.search(text)]
    if widget_errors:
        raise BrowserTestError(
            "widget errors in the browser console: "
            + " | ".join(widget_errors)[:1500]
        )
    return notes + [f"console error: {text[:200]}" for text in errors]
