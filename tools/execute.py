"""Run notebooks top to bottom in a fresh kernel, every wait bounded.

    python -m tools.execute [--inplace | --output-dir DIR] NOTEBOOK ...

`make execute` and `make pt` store the notebooks this way, and the tests
run the handouts' notebooks and the set-up route's with it. nbclient does
the work, with two changes:

- An Output widget (the output area of ipywidgets' `interact`) keeps what
  it captures. nbclient's stand-in for the browser's widget sends it back
  to the kernel on the shell socket while the client waits on that socket
  for the cell's reply; the reply can then sit unread in the socket until
  the wait times out (nbclient issue #312): a run that stalled for the
  whole cell timeout and then went on. Nothing else sends while a reply
  is awaited. The saved widget state is nbclient's own record, unchanged;
  the kernel's copy of the widget's `outputs` stays empty, and no notebook
  reads or sets it.
- Every wait has a bound, and reaching one is an error that names the
  notebook (and the cell, for a cell's wait): the kernel's start
  (START_TIMEOUT), a cell's reply (CELL_TIMEOUT), its last outputs after
  the reply (OUTPUT_TIMEOUT). A cell that ends past its bound fails too:
  when the wait for a reply runs out, pyzmq looks at the socket once more,
  and nbclient goes on with a reply that was left unread there as if
  nothing had happened.
"""

import argparse
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellTimeoutError, DeadKernelError
from nbclient.output_widget import OutputWidget

# seconds: the longest cells take 30 to 60 s on 2 cores; other CPU
# kernels and a busy machine take longer, a kernel that stopped forever
CELL_TIMEOUT = 300
OUTPUT_TIMEOUT = 60
START_TIMEOUT = 120


class Stalled(RuntimeError):
    """A wait for the kernel reached its bound."""


class _KeptOutput(OutputWidget):
    """An Output widget that does not send its outputs back to the kernel
    (the module's docstring says why)."""

    def sync_state(self):
        """Keep the captured outputs here."""


_clock = time.monotonic  # what times a cell (a test sets its own)


def _where(path, index, cell):
    """Name a notebook's cell as a reader finds it."""
    first = cell.source.strip().splitlines()[:1] or [""]
    return f"{Path(path).name}, cell {index} (id {cell.get('id')}): {first[0]}"


def run(path, timeout=CELL_TIMEOUT):
    """Return the notebook at path executed top to bottom, the kernel
    started in the notebook's folder.

    Raises Stalled when a cell's wait reaches its bound, DeadKernelError
    when the kernel dies (both naming the cell), nbclient's
    CellExecutionError when a cell raises.
    """
    path = Path(path)
    nb = nbformat.read(path, as_version=4)
    started = {}

    def on_start(cell, cell_index):
        started["at"], started["cell"] = _clock(), (cell_index, cell)

    def on_done(cell, cell_index, execute_reply):
        took = _clock() - started["at"]
        if took >= timeout:
            raise Stalled(
                f"{_where(path, cell_index, cell)}: ended after {took:.0f} "
                f"s, past the {timeout} s bound"
            )

    client = NotebookClient(
        nb,
        timeout=timeout,
        iopub_timeout=OUTPUT_TIMEOUT,
        raise_on_iopub_timeout=True,
        startup_timeout=START_TIMEOUT,
        resources={"metadata": {"path": str(path.parent)}},
        on_cell_execute=on_start,
        on_cell_executed=on_done,
    )
    client.widget_registry["@jupyter-widgets/output"]["OutputModel"] = (
        _KeptOutput
    )
    try:
        client.execute()
    except (CellTimeoutError, DeadKernelError) as error:
        where = _where(path, *started["cell"]) if started else path.name
        kind = Stalled if isinstance(error, CellTimeoutError) else type(error)
        raise kind(f"{where}: {error}") from None
    return nb


def _positive(text):
    """A number of seconds above zero (nbclient reads 0 as no bound)."""
    if int(text) <= 0:
        raise argparse.ArgumentTypeError(f"{text}: not a positive number")
    return int(text)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m tools.execute")
    parser.add_argument("notebooks", nargs="*", type=Path)
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--inplace", action="store_true")
    where.add_argument("--output-dir", type=Path)
    parser.add_argument("--timeout", type=_positive, default=CELL_TIMEOUT)
    args = parser.parse_args(argv)
    for path in args.notebooks:
        try:
            nb = run(path, timeout=args.timeout)
        except Stalled as error:
            sys.exit(f"tools.execute: {error}")
        except Exception as error:  # a cell raised, no kernel started, ...
            sys.exit(
                f"tools.execute: {path.name}: {type(error).__name__}: {error}"
            )
        target = path if args.inplace else args.output_dir / path.name
        target.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(nb, target)
        print(target)


if __name__ == "__main__":
    main()
