# generated, do not edit: the #@save cells of
# notebooks/05_seq2seq.ipynb

from torch import nn
from torch.nn import functional as F

from .masking import sequence_mask

__all__ = [
    "MaskedSoftmaxCELoss",
]


class MaskedSoftmaxCELoss(nn.Module):
    """Per-example cross-entropy over valid positions, / num_steps.

    Defined in notebook 05.
    """

    def forward(self, pred, label, valid_len, num_steps=None):
        # pred: (batch_size, steps, vocab_size), label: (batch_size, steps);
        # steps is num_steps, or fewer when padding columns were cut
        batch_size, steps, vocab_size = pred.shape
        # (batch_size * steps, vocab_size) against (batch_size * steps,)
        losses = F.cross_entropy(
            pred.reshape(batch_size * steps, vocab_size),
            label.reshape(batch_size * steps),
            reduction="none",
        )
        # (batch_size, steps), zero past each valid length
        losses = sequence_mask(losses.reshape(batch_size, steps), valid_len)
        num_steps = steps if num_steps is None else num_steps
        return losses.sum(dim=1) / num_steps  # (batch_size,)
