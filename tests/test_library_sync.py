"""The helper package is what the exporter writes from the notebooks."""

import subprocess
import sys

from tools import export
from tools.project import ROOT


def test_package_matches_notebooks():
    command = [sys.executable, "-m", "tools.export", "--check"]
    result = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stderr


def test_every_module_has_header_and_all_and_never_imports_itself():
    modules = sorted((ROOT / "d2l_attention").glob("*.py"))
    assert len(modules) >= 2
    # the modules written by hand, and the exercises' checks, say so
    written = [path for path in modules if path.stem in export.HAND_WRITTEN]
    assert written and all(
        "do not edit" not in path.read_text(encoding="utf-8").split("\n")[0]
        for path in written
    )
    for path in sorted(set(modules) - set(written)):
        text = path.read_text(encoding="utf-8")
        assert "do not edit" in text.splitlines()[0], path
        assert "__all__" in text, path
        assert "import d2l_attention" not in text, path
        assert "from d2l_attention" not in text, path


def test_package_reexports_public_names():
    import d2l_attention

    for name in d2l_attention.__all__:
        assert callable(getattr(d2l_attention, name)), name


def test_importing_the_models_and_loss_leaves_plotting_and_training_out():
    code = (
        "import sys\n"
        "from d2l_attention import (MultiHeadAttention, load_data_nmt,\n"
        "    predict_seq2seq, Seq2SeqAttentionDecoder, MaskedSoftmaxCELoss)\n"
        # torch itself imports tqdm (torch.hub); the bars use tqdm.auto
        "loaded = [m for m in ('matplotlib', 'IPython', 'tqdm.auto',\n"
        "          'd2l_attention.plotting', 'd2l_attention.training')\n"
        "          if m in sys.modules]\n"
        "assert not loaded, loaded\n"
        "from d2l_attention import train_seq2seq\n"
        "assert 'matplotlib' in sys.modules\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
