"""The claims of notebooks/02_additive_attention.ipynb, checked in its
kernel after the cells named (tests/claims/plugin.py)."""

# %% after 398ff02a
# Additive attention is a one-hidden-layer MLP with no biases on [q; k],
# whose first layer is the block matrix [W_q W_k].
q_size, k_size, h = 5, 3, 4
W_q = nn.Linear(q_size, h, bias=False)
W_k = nn.Linear(k_size, h, bias=False)
w_v = nn.Linear(h, 1, bias=False)
q, k = torch.randn(q_size), torch.randn(k_size)
mlp = nn.Sequential(
    nn.Linear(q_size + k_size, h, bias=False),
    nn.Tanh(),
    nn.Linear(h, 1, bias=False),
)
with torch.no_grad():
    mlp[0].weight.copy_(torch.cat([W_q.weight, W_k.weight], dim=1))
    mlp[2].weight.copy_(w_v.weight)
    score = w_v(torch.tanh(W_q(q) + W_k(k)))
    assert torch.allclose(score, mlp(torch.cat([q, k])), atol=1e-6)
del q_size, k_size, h, W_q, W_k, w_v, q, k, mlp, score

# %% after 6a95a8e2
# features[b, i, j] is query i plus key j of example b; the read-out
# leaves one score per (query, key) pair.
for b, i, j in [(0, 0, 0), (1, 3, 2), (0, 2, 1), (1, 0, 1)]:
    assert torch.equal(features[b, i, j], proj_q[b, i] + proj_k[b, j])
    one = readout(torch.tanh(proj_q[b, i] + proj_k[b, j]))
    assert torch.allclose(scores[b, i, j], one[0], atol=1e-6)

# %% after 03bea2e7
# W_q, W_k and w_v are the learned parameters; w_v holds num_hiddens
# weights and is not the values; in eval() mode dropout does nothing.
layer = AdditiveAttention(
    key_size=2, query_size=20, num_hiddens=8, dropout=0.5
).eval()
assert [name for name, _ in layer.named_parameters()] == [
    "W_k.weight",
    "W_q.weight",
    "w_v.weight",
]
assert layer.w_v.weight.shape == (1, 8)
qs, ks, vs = (
    torch.randn(2, 1, 20),
    torch.randn(2, 10, 2),
    torch.randn(2, 10, 4),
)
with torch.no_grad():
    out = layer(qs, ks, vs, torch.tensor([2, 6]))
assert torch.allclose(out, layer.attention_weights @ vs, atol=1e-6)
del layer, qs, ks, vs, out


# %% after 58a5123f
# The two hidden units: both near 1 for a key at the query, one of them 0
# a position away, of opposite signs and nearly cancelling farther away.
def _units(query, key):
    keys = torch.tensor([[[key, 1.0]]])
    with torch.no_grad():
        return torch.tanh(
            scorer.W_q(torch.tensor([[[query]]])) + scorer.W_k(keys)
        )[0, 0]


at, next_to = _units(3.0, 3.0), _units(3.0, 4.0)
assert (at > 0.95).all()
assert (next_to.abs() < 1e-6).any() and (next_to > 0.99).any()
for distance in [2.0, 2.5, 3.0, 5.0]:
    far = _units(3.0, 3.0 + distance)
    assert far[0] * far[1] < 0 and far.sum().abs() < 0.04

# %% after pick-a-key
# Key 3 takes almost all the weight, and the output is the position 3.
weights = scorer.attention_weights[0, 0]
assert weights.argmax() == 3 and weights[3] > 0.95
assert abs(output.item() - 3) < 0.01

# %% after quiz-identical-widget
# The quiz: identical keys get uniform weights over the valid keys,
# whatever the parameters; each choice shows its verdict.
quiz = _
answers = [quiz.choose(text) for text in quiz.buttons.options]
assert [a.startswith("✔") for a in answers] == [False, True, False]
for seed in range(5):
    torch.manual_seed(seed)
    layer = AdditiveAttention(2, 20, 8, dropout=0.0).eval()
    with torch.no_grad():
        layer(
            torch.randn(2, 1, 20),
            torch.ones(2, 10, 2) * seed,
            torch.randn(2, 10, 4),
            torch.tensor([2, 6]),
        )
    expected = masked_softmax(torch.zeros(2, 1, 10), torch.tensor([2, 6]))
    assert torch.allclose(layer.attention_weights, expected, atol=1e-6)
del quiz, layer

# %% after c0c438f3
# The explorer: one figure and nothing else; scale 0 gives uniform
# weights; raised, the weight gathers near the query; the title gives the
# output; the colour scale is 0 to 1.
from IPython.utils.capture import capture_output


def shown_weights(fig):
    """Return the weights a heatmap figure shows, as a (10,) tensor."""
    return torch.as_tensor(fig.axes[0].images[0].get_array())[0].float()


with capture_output() as captured:
    assert explore_additive(3.0, 2.0, 10) is None
assert len(captured.outputs) == 1 and captured.stdout == ""
uniform = shown_weights(draw_additive(query=3.0, scale=0.0, valid_len=10))
assert torch.allclose(uniform, torch.full((10,), 0.1))
fig = draw_additive(query=3.0, scale=3.0, valid_len=10)
near = shown_weights(fig)
assert near.argmax() == 3 and near[2:5].sum() > 0.9
average = (near * key_positions).sum().item()
assert fig.axes[0].get_title().endswith(number(average, ".2f"))
assert fig.axes[0].images[0].get_clim() == (0, 1)
plt.close("all")

# %% after c0c438f3
# Things to try: at the start (query 3, scale 2) the output is not 3, the
# far keys pulling it towards the side with more of them (the right).
draw_additive(query=3.0, scale=2.0, valid_len=10)
start = (scorer.attention_weights[0, 0] * key_positions).sum().item()
assert start > 3.1
right = scorer.attention_weights[0, 0, 5:].sum()
left = scorer.attention_weights[0, 0, :2].sum()
assert right > left
plt.close("all")

# %% after c0c438f3
# Things to try: query 5.5, valid length 5, scale 6: the last valid key,
# 1.5 positions to the left of the query, gets the largest weight; with
# valid length 3 (every valid key 3.5 or more away) the weight spreads
# almost evenly over the valid keys.
draw_additive(query=5.5, scale=6.0, valid_len=5)
assert scorer.attention_weights[0, 0].argmax() == 4
draw_additive(query=5.5, scale=6.0, valid_len=3)
kept = scorer.attention_weights[0, 0, :3]
assert (kept - 1 / 3).abs().max() < 0.01
plt.close("all")

# %% after b7cec443
# The book's toy example: identical keys, uniform weights over the valid
# keys, so each output is the plain mean of the valid values.
expected = torch.tensor([[[2.0, 3, 4, 5]], [[10.0, 11, 12, 13]]])
assert torch.allclose(output.cpu(), expected, atol=1e-5)
w = attention.attention_weights.cpu()
assert torch.allclose(w[0, 0, :2], torch.full((2,), 1 / 2))
assert torch.allclose(w[1, 0, :6], torch.full((6,), 1 / 6))
assert (w[0, 0, 2:] == 0).all() and (w[1, 0, 6:] == 0).all()

# %% after 6b61152e
# Exercise 1's answer: with random keys the weights still sum to one over
# the valid keys and are zero past them, but are not uniform, and the
# output moves away from the plain means.
w = attention.attention_weights.cpu()
assert torch.allclose(w.sum(-1), torch.ones(2, 1))
assert (w[0, 0, 2:] == 0).all() and (w[1, 0, 6:] == 0).all()
for example, length in enumerate([2, 6]):
    valid = w[example, 0, :length]
    assert not torch.allclose(valid, torch.full((length,), 1 / length))
    assert not torch.allclose(
        out_random[example].cpu(), expected[example], atol=1e-3
    )

# %% after exercise-a-quantity
# Exercise A: the hook caught the weights that multiplied the values; a
# row sums to 1 / 0.9 when it loses no valid weight, below 1 when it loses
# one; the loop stopped on a dropped valid weight.
p = attention.dropout.p
last = used[-1]
assert torch.allclose(out_train, torch.bmm(last, values), atol=1e-4)
valid = attention.attention_weights > 0
assert (valid & (last == 0)).any()
for weights_used in used:
    lost = (valid & (weights_used == 0)).any(-1).flatten()
    sums = weights_used.sum(-1).flatten()
    assert torch.allclose(sums[~lost], torch.full_like(sums[~lost], 1 / 0.9))
    assert (sums[lost] < 1).all()
kept = valid & (last != 0)
assert torch.allclose(last[kept], attention.attention_weights[kept] / (1 - p))

# %% after hidden-units-table
# The sum of the two units is largest at the query, about half as large
# one position away, and under 0.04 two or more positions away.
sums = units.sum(0)
assert (sums[1:] < sums[:-1]).all()
assert abs(sums[2] / sums[0] - 0.5) < 0.05
assert (sums[4:] < 0.04).all()

# %% after c0c438f3
# The answers to the things to try: the units' sum is never negative,
# every score lies between 0 and about 1.93 s; around query 3, keys 4 to 6
# balance keys 2 to 0, and keys 7 to 9 pull the output up.
for _scale in [0.5, 2.0, 6.0]:
    with torch.no_grad():
        scorer.w_v.weight.fill_(_scale)
        for _query in [0.0, 3.0, 5.5, 9.0]:
            _hidden = torch.tanh(
                scorer.W_q(torch.tensor([[[_query]]]))
                + scorer.W_k(position_keys)
            )
            _scores = scorer.w_v(_hidden).squeeze(-1)
            assert (_scores >= 0).all()
            assert (_scores <= 1.93 * _scale).all()
draw_additive(query=3.0, scale=2.0, valid_len=10)
_w = scorer.attention_weights[0, 0]
assert torch.allclose(_w[4:7], _w[0:3].flip(0), atol=1e-6)
assert (_w[7:] > 0).all()
plt.close("all")

# %% after 6a95a8e2
# The features hold h numbers per pair, h times the memory of the scores.
assert features.numel() == 6 * scores.numel()

# %% after 01aac71f
# Bad calls fail early, with a ValueError that says what is wrong.
for _bad in [torch.ones(3, 10, 2), torch.ones(2, 10, 5), torch.ones(10, 2)]:
    try:
        attention(queries.cpu(), _bad, values.cpu())
    except ValueError:
        pass
    else:
        raise AssertionError("bad keys were accepted")
