"""The claims of notebooks/01_masked_softmax.ipynb, checked in its kernel
after the cells named (tests/claims/plugin.py)."""

# %% after pooling-diagram
# The figure draws the three steps: its labels keep apart.
fig.canvas.draw()
labels = [t for t in fig.axes[0].texts if t.get_text()]  # no arrows
boxes = [t.get_window_extent() for t in labels]
assert len(boxes) == 25, len(boxes)
overlaps = [
    (a, b)
    for i, a in enumerate(boxes)
    for b in boxes[i + 1 :]
    if a.overlaps(b)
]
assert not overlaps, overlaps
plt.close(fig)

# %% after pooling-numbers
# Step 2: the weights are positive and sum to one; Nadaraya-Watson kernel
# regression is such a pooling, with the Gaussian score -(q - k)^2 / 2.
import math

assert (weights_1d > 0).all()
assert torch.isclose(weights_1d.sum(), torch.tensor(1.0))
kernel = torch.exp(-((query_1d - keys_1d) ** 2) / 2) / math.sqrt(2 * math.pi)
assert torch.allclose(kernel / kernel.sum(), weights_1d)

# %% after pooling-numbers
# Keys 3 and 4, the nearest, take most of the weight; keys more than 2
# away, almost none.
top_two = weights_1d.topk(2).indices.sort().values.tolist()
assert top_two == [3, 4], top_two
assert weights_1d[3] + weights_1d[4] > 0.5
far = (keys_1d - query_1d).abs() > 2
assert weights_1d[far].sum() < 0.05, weights_1d[far].sum()

# %% after pooling-numbers
# The output lies between the values of keys 3 and 4: key 4 pulls it below
# key 3's value more than key 2 pulls it up.
assert values_1d[4] < output_1d < values_1d[3]


def _without(key):
    """The output with one key left out, the others renormalised."""
    keep_others = torch.arange(8) != key
    kept = weights_1d[keep_others] / weights_1d[keep_others].sum()
    return (kept * values_1d[keep_others]).sum()


pull_of_4, pull_of_2 = output_1d - _without(4), output_1d - _without(2)
assert pull_of_4 < 0 < pull_of_2 and -pull_of_4 > pull_of_2

# %% after pooling-numbers
# The figure's three panels keep their titles and x labels apart.
fig.canvas.draw()
gap = 0.03 * fig.bbox.width
for boxes in (
    [ax.title.get_window_extent() for ax in fig.axes],
    [ax.xaxis.label.get_window_extent() for ax in fig.axes],
):
    assert all(
        left.x1 + gap < right.x0 for left, right in zip(boxes, boxes[1:])
    )
plt.close(fig)

# %% after 3388401d
# The pads take weight, and the output changes with the padding although
# the sentence did not.
outputs = []
for num_pads in [2, 6]:
    plain = torch.softmax(torch.zeros(2 + num_pads), dim=0)
    assert torch.isclose(
        plain[2:].sum(), torch.tensor(num_pads / (2 + num_pads))
    )
    padded = torch.cat([values_real, torch.zeros(num_pads)])
    outputs.append(plain @ padded)
assert not torch.isclose(outputs[0], outputs[1])

# %% after 76283e1c
# positions[None, :] is a row, valid_len[:, None] a column; both
# broadcast to (3, 4) grids.
assert row.shape == (1, 4) and col.shape == (3, 1)
assert row_grid.shape == col_grid.shape == (3, 4)

# %% after mask-check
# The comparison, position < valid length, gives the mask: row i is True
# for its first valid_len[i] positions.
assert torch.equal(mask, row_grid < col_grid)
assert mask.sum(dim=1).tolist() == valid_len.tolist()

# %% after valid-lens-to-mask
# valid_lens_to_mask writes that comparison once: one valid length per
# example gives a mask of shape (batch_size, 1, no. of keys).
keep = valid_lens_to_mask(valid_len, maxlen)
assert keep.shape == (3, 1, 4)
assert torch.equal(keep[:, 0], positions[None, :] < valid_len[:, None])

# %% after 86d16da7
# The lowest number of a dtype has an exponential of 0.
for dtype in [torch.float32, torch.float16, torch.bfloat16, torch.float64]:
    assert torch.exp(torch.tensor(torch.finfo(dtype).min, dtype=dtype)) == 0

# %% after 51afbeff
# Positions past the valid length get weight 0; every row still sums to
# one.
assert (weights[0, :, 2:] == 0).all() and (weights[1, :, 3:] == 0).all()
assert (weights[0, :, :2] > 0).all() and (weights[1, :, :3] > 0).all()
assert torch.allclose(weights.sum(dim=-1), torch.ones(2, 2, device=device))

# %% after pads-fixed
# With its valid length 2, the padded sentence gets the same output for 2
# and 6 pads (and 20): the pads get weight 0.
outputs = []
for num_pads in [2, 6, 20]:
    padded = torch.cat([values_real, torch.zeros(num_pads)])
    masked = masked_softmax(
        torch.zeros(1, 1, 2 + num_pads), torch.tensor([2])
    )[0, 0]
    assert masked[2:].sum() == 0
    outputs.append(masked @ padded)
assert all(torch.isclose(out, torch.tensor(2.0)) for out in outputs)

# %% after empty-row
# Alone, the softmax gives uniform weights to a row of equal scores;
# masked_softmax gives a row of valid length 0 zeros.
alone = torch.softmax(torch.full((4,), lowest), dim=0)
assert torch.equal(alone, torch.full((4,), 0.25))
empty = masked_softmax(torch.rand(1, 2, 4), torch.tensor([0]))
assert torch.equal(empty, torch.zeros(1, 2, 4))
values_empty = torch.randn(1, 4, 3)
assert torch.equal(empty @ values_empty, torch.zeros(1, 2, 3))

# %% after b1886fd7
# The explorer: its callback shows one figure and returns nothing; length
# 0 turns an example's rows white, length 8 rows sum to one, the titles
# keep apart and the colour scale is 0 to 1.
from IPython.utils.capture import capture_output

with capture_output() as captured:
    assert explore_valid_lens(0, 8) is None
assert len(captured.outputs) == 1 and captured.stdout == ""
fig = draw_valid_lens(0, 8)
heatmaps = fig.axes[:2]  # the third axis is the colour bar
titles = [ax.get_title() for ax in heatmaps]  # in the edition's language
assert titles[0].endswith(" 0") and titles[1].endswith(" 8"), titles
fig.canvas.draw()
left, right = (ax.title.get_window_extent() for ax in heatmaps)
assert left.x1 < right.x0
shown = [torch.as_tensor(ax.images[0].get_array()) for ax in heatmaps]
assert (shown[0] == 0).all()
assert torch.allclose(shown[1].sum(-1), torch.ones(3, dtype=shown[1].dtype))
assert all(ax.images[0].get_clim() == (0, 1) for ax in heatmaps)
plt.close(fig)

# %% after exercise-a-quantity
# Exercise A's answer: a valid length beyond the number of keys masks
# nothing, as a length equal to it.
assert torch.equal(beyond, exact)

# %% after 34d9c965
# Given per query, the four rows get 1, 3, 2 and 4 keys, and each sums to
# one.
assert ((weights_2d > 0).sum(dim=-1) == valid_2d).all()
assert torch.allclose(weights_2d.sum(dim=-1), torch.ones(2, 2, device=device))
assert valid_lens_to_mask(valid_2d, 4).shape == (2, 2, 4)

# %% after bf130d24
# The heatmaps of the 1-D and 2-D valid lengths: four and a colour bar.
assert len(fig.axes) == 5
plt.close(fig)

# %% after mask-conventions-check
# On a row with no valid key, nn.MultiheadAttention gives NaN with its
# default need_weights=True, and F.scaled_dot_product_attention zeros on the
# CPU.
empty_lens = torch.tensor([0, 4])
no_key = valid_lens_to_mask(empty_lens, 5)  # example 0: no valid key
out_mha, w_mha = mha(q, k, v, key_padding_mask=~no_key[:, 0])
assert w_mha[0].isnan().all() and out_mha[0].isnan().all()
assert not w_mha[1].isnan().any()
out_sdpa = F.scaled_dot_product_attention(q, k, v, attn_mask=no_key)
assert (out_sdpa[0] == 0).all()

# %% after 6e22c157
# Bad input gets a clear message: each of these valid lengths is refused
# with a ValueError.
for _bad in [
    torch.tensor([1, 2, 3]),
    torch.tensor([-1, 2]),
    torch.tensor([1.5, 2.0]),
]:
    try:
        masked_softmax(torch.rand(2, 2, 4), _bad)
    except ValueError:
        pass
    else:
        raise AssertionError(f"{_bad} was accepted")

# %% after 8839a6ce
# Ours returns a new tensor and leaves the caller's X alone; it takes any
# trailing axes, masking the same steps.
assert torch.equal(
    X, torch.tensor([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]])
)
Y3 = sequence_mask(torch.ones(3, 4, 2), valid_len)
assert torch.equal(Y3[..., 0], Y3[..., 1])
assert torch.equal(Y3[..., 0] != 0, Y != 0)

# %% after mask-conventions-check
# Each row of the table: scaled_dot_product_attention takes our mask as it
# is; nn.MultiheadAttention takes ~keep[:, 0] as key_padding_mask, and the
# same ~keep expanded as attn_mask, repeated per head.
assert torch.allclose(sdpa, ours @ v, atol=1e-5)
assert (w_pad[~keep.expand(2, 3, 5)] == 0).all()
_, w_attn = mha(q, k, v, attn_mask=~keep.expand(2, 3, 5))
assert torch.allclose(w_pad, w_attn)
assert torch.allclose(w2_pad, w2_attn)

# %% after c7c74aae
# The book's version overwrites the caller's scores through a view; ours
# leaves them alone.
assert (scores == kept).all()
_scores = kept.clone()
book_masked_softmax(_scores, torch.tensor([2, 3]))
assert (_scores == -1e6).sum() == 6

# %% after eb50e697
# In float32 the book's version gives a row with no valid key uniform
# weights over its pads; ours a row of zeros.
assert torch.equal(
    book_masked_softmax(torch.rand(2, 2, 4), empty)[0],
    torch.full((2, 4), 0.25),
)
assert torch.equal(
    masked_softmax(torch.rand(2, 2, 4), empty)[0], torch.zeros(2, 4)
)

# %% after 889644cc
# float16 holds numbers up to 65504, so -1e6 becomes -inf there and the
# book's version gives NaN on rows with no valid key; in bfloat16 -1e6 is
# -999424 and finite; ours gives no NaN in any; on every row with a valid
# key the two versions agree in all three dtypes.
assert torch.finfo(torch.float16).max == 65504
assert torch.tensor(-1e6, dtype=torch.float16) == float("-inf")
assert torch.tensor(-1e6, dtype=torch.bfloat16) == -999424
valid_rows = lens > 0
for _dtype in [torch.float32, torch.float16, torch.bfloat16]:
    _X = (torch.randn(4, 3, 6) * 5).to(_dtype)
    _book = book_masked_softmax(_X.clone(), lens)
    _ours = masked_softmax(_X, lens)
    assert torch.isfinite(_ours).all()
    assert torch.isfinite(_book).all() == (_dtype != torch.float16)
    assert torch.allclose(
        _book[valid_rows].float(), _ours[valid_rows].float(), atol=1e-6
    )
