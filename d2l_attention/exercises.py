# generated, do not edit: the #@save cells of
# notebooks/01_masked_softmax.ipynb
# notebooks/02_additive_attention.ipynb
# notebooks/03_scaled_dot_product_attention.ipynb
# notebooks/04_multihead_attention.ipynb
# notebooks/05_seq2seq.ipynb
# notebooks/06_bahdanau_attention.ipynb
# notebooks/07_attention_comparison.ipynb

import math

import torch
from torch import nn
from torch.nn import functional as F

from .additive_attention import AdditiveAttention
from .checks import Messages
from .encoder_decoder import Seq2SeqDecoder, Seq2SeqEncoder
from .loss import MaskedSoftmaxCELoss
from .masking import masked_softmax
from .multihead_attention import MultiHeadAttention

__all__ = [
    "check_softmax_then_pad",
    "check_score_gradient",
    "check_permuted_output",
    "check_bilinear_attention",
    "check_head_weights",
    "check_unmasked_loss",
    "check_bridged_decoder",
    "check_free_running_decoder",
    "check_lstm_query",
    "check_context_by_hand",
    "check_precomputed_keys",
    "check_score_of_counts",
]


class _Verdict:
    """What the check of an exercise found: right, or a hint.

    Shows as one line in the notebook's language. Defined in notebook 01.
    """

    def __init__(self, passed, english, portuguese):
        self.passed = passed
        self.message = Messages.say(english, portuguese)

    def __repr__(self):
        if self.passed:
            return Messages.say("✔ Right: ", "✔ Certo: ") + self.message
        return Messages.say("✘ Not yet: ", "✘ Ainda não: ") + self.message


def _call_answer(answer, *args):
    """Return (answer(*args), None), or (None, a hint) if that fails.

    Defined in notebook 01.
    """
    if not callable(answer):
        name = type(answer).__name__
        return None, _Verdict(
            False,
            f"the answer must be a function, got {name}",
            f"a resposta precisa ser uma função; recebido: {name}",
        )
    try:
        result = answer(*args)
    except Exception as error:
        kind = type(error).__name__
        return None, _Verdict(
            False,
            f"the answer raised {kind}: {error}",
            f"a resposta gerou o erro {kind}: {error}",
        )
    if result is None:
        return None, _Verdict(
            False,
            "the answer returned None: write its code in place of "
            "the `...`, and `return` the result",
            "a resposta devolveu None: "
            "escreva o código dela no lugar de `...` e devolva o resultado "
            "com `return`",
        )
    return result, None


def _shape_hint(result, shape):
    """Return a hint unless result is a tensor of the given shape.

    A check compares the result once cast to float32 (result.float()), so
    that a float64 answer is as good as a float32 one. Defined in notebook
    01.
    """
    if not torch.is_tensor(result):
        kind = type(result).__name__
        return _Verdict(
            False,
            f"the answer must return a tensor, got {kind}",
            f"a resposta precisa devolver um tensor; recebido: {kind}",
        )
    if tuple(result.shape) != tuple(shape):
        got, want = tuple(result.shape), tuple(shape)
        return _Verdict(
            False,
            f"the result must have shape {want}, got {got}",
            f"o resultado precisa ter formato {want}; recebido: {got}",
        )
    return None


def check_softmax_then_pad(softmax_then_pad):
    """Check exercise 01 B: softmax of the first valid_len scores, zeros.

    Defined in notebook 01.
    """
    scores = torch.randn(6, generator=torch.Generator().manual_seed(0))
    for n in range(1, 7):
        result, hint = _call_answer(softmax_then_pad, scores.clone(), n)
        hint = hint or _shape_hint(result, (6,))
        if hint:
            return hint
        result = result.detach().double()
        if (result[n:] != 0).any():
            return _Verdict(
                False,
                f"with valid_len = {n}, the entries from position "
                f"{n} on must be 0",
                f"com valid_len = {n}, as entradas a "
                f"partir da posição {n} precisam ser 0",
            )
        if not torch.isclose(result.sum(), torch.tensor(1.0).double()):
            return _Verdict(
                False,
                f"with valid_len = {n}, the entries sum to "
                f"{result.sum():.3f}, not 1: normalise over the first "
                f"valid_len scores only",
                f"com valid_len = {n}, as entradas"
                f" somam {result.sum():.3f}, e não 1: normalize só entre as "
                f"valid_len primeiras pontuações",
            )
        expected = masked_softmax(scores.reshape(1, 1, 6), torch.tensor([n]))
        if not torch.allclose(result, expected.flatten().double()):
            return _Verdict(
                False,
                f"with valid_len = {n}, the entries sum to 1 and the "
                f"padding is 0, but the values are not the softmax of the "
                f"first {n} scores",
                f"com valid_len = {n}, as entradas somam "
                f"1 e o preenchimento é 0, mas os valores não são a softmax "
                f"das {n} primeiras pontuações",
            )
    return _Verdict(
        True,
        "equal to masked_softmax for every valid length from 1 to 6",
        "igual a masked_softmax para todo comprimento válido de 1 a 6",
    )


def check_score_gradient(score_gradient):
    """Check exercise 01 C: the gradient of the masked scores is zero.

    Defined in notebook 01.
    """
    X = torch.randn(2, 2, 5, generator=torch.Generator().manual_seed(0))
    valid_lens = torch.tensor([2, 4])
    grad, hint = _call_answer(score_gradient, X.clone(), valid_lens)
    hint = hint or _shape_hint(grad, X.shape)
    if hint:
        return hint
    grad = grad.detach().float()
    # (2, 1, 5): True where a key lies past its example's valid length
    masked = torch.arange(5) >= valid_lens[:, None, None]
    if (grad.abs() < 1e-6).all():
        return _Verdict(
            False,
            "every gradient is 0. A loss like out.sum() is the same "
            "for any scores, as every row sums to one: weight the outputs "
            "at random, (out * torch.randn_like(out)).sum()",
            "todos os "
            "gradientes são 0. Uma perda como out.sum() dá o mesmo valor "
            "para quaisquer pontuações, já que cada linha soma um: pondere "
            "as saídas com pesos aleatórios, "
            "(out * torch.randn_like(out)).sum()",
        )
    if (grad.masked_select(masked) != 0).any():
        return _Verdict(
            False,
            "a masked score got a gradient: take the gradient of a "
            "loss computed from masked_softmax(X, valid_lens)",
            "uma "
            "pontuação mascarada recebeu gradiente: calcule o gradiente de "
            "uma perda calculada a partir de masked_softmax(X, valid_lens)",
        )
    # adding a number to a row of scores changes no weight: whatever the
    # loss, each row of its gradient sums to 0
    if not torch.allclose(grad.sum(-1), torch.zeros(2, 2), atol=1e-5):
        return _Verdict(
            False,
            "this is not the gradient of a loss with respect to the "
            "scores: adding the same number to a row of scores changes no "
            "weight, so each row of the gradient sums to 0",
            "isto não é o "
            "gradiente de uma perda em relação às pontuações: somar o mesmo "
            "número a uma linha de pontuações não muda nenhum peso, então "
            "cada linha do gradiente soma 0",
        )
    if (grad.masked_select(~masked) == 0).any():
        return _Verdict(
            False,
            "a valid score got no gradient: weight the outputs at random",
            "uma pontuação válida ficou sem gradiente: pondere as "
            "saídas com pesos aleatórios",
        )
    return _Verdict(
        True,
        "every masked score's gradient is exactly 0, and "
        "the valid scores get one",
        "o gradiente de toda "
        "pontuação mascarada é exatamente 0, e as válidas recebem "
        "gradiente",
    )


def _reordering_hint(out, attention, queries, keys, values, perm, valid_lens):
    """Return what a wrong output of exercise 02 B got wrong.

    Defined in notebook 02.
    """

    def close(a, b):
        return torch.allclose(a, b, atol=1e-5)

    if close(out, attention(queries, keys[:, perm], values, valid_lens)):
        return _Verdict(
            False,
            "the keys were reordered, but not the "
            "values: reorder both by perm",
            "as chaves foram "
            "reordenadas, mas os valores não: reordene os dois "
            "por perm",
        )
    if close(out, attention(queries, keys, values[:, perm], valid_lens)):
        return _Verdict(
            False,
            "the values were reordered, but not the "
            "keys: reorder both by perm",
            "os valores foram "
            "reordenados, mas as chaves não: reordene os dois "
            "por perm",
        )
    if valid_lens is not None and close(
        out, attention(queries, keys[:, perm], values[:, perm])
    ):
        return _Verdict(
            False,
            "the valid lengths were left out: pass valid_lens to attention",
            "os comprimentos válidos "
            "ficaram de fora: passe valid_lens para attention",
        )
    if close(out, attention(queries, keys, values, valid_lens)):
        return _Verdict(
            False,
            "with valid lengths, this is the output in "
            "the original order: reorder the keys and the "
            "values, keys[:, perm] and values[:, perm]",
            "com "
            "comprimentos válidos, esta é a saída na ordem "
            "original: reordene as chaves e os valores, "
            "keys[:, perm] e values[:, perm]",
        )
    return _Verdict(
        False,
        "the output is not that of attention for "
        "keys[:, perm] and values[:, perm]",
        "a saída não é a de attention para keys[:, perm] e values[:, perm]",
    )


def check_permuted_output(permuted_output):
    """Check exercise 02 B: attention over keys and values reordered.

    Defined in notebook 02.
    """
    with torch.random.fork_rng():  # leaves the notebook's random state
        torch.manual_seed(0)
        attention = AdditiveAttention(2, 20, num_hiddens=8, dropout=0)
        queries, keys = torch.randn(2, 1, 20), torch.randn(2, 10, 2)
        values = torch.randn(2, 10, 4)
    attention.eval()
    perm = torch.tensor([3, 7, 0, 9, 1, 5, 8, 2, 6, 4])
    for valid_lens in (None, torch.tensor([2, 6])):
        with torch.no_grad():
            out, hint = _call_answer(
                permuted_output,
                attention,
                queries,
                keys,
                values,
                perm,
                valid_lens,
            )
            hint = hint or _shape_hint(out, (2, 1, 4))
            if hint:
                return hint
            out = out.float()
            expected = attention(
                queries, keys[:, perm], values[:, perm], valid_lens
            )
            if not torch.allclose(out, expected, atol=1e-5):
                return _reordering_hint(
                    out, attention, queries, keys, values, perm, valid_lens
                )
    return _Verdict(
        True,
        "keys and values reordered together, with and without valid lengths",
        "chaves e valores reordenados juntos, com e sem comprimentos válidos",
    )


def _bilinear_hint(layer, queries, keys, values, valid_lens):
    """Return a hint unless layer gives masked weights and their output.

    Defined in notebook 03.
    """
    out, hint = _call_answer(layer, queries, keys, values, valid_lens)
    hint = hint or _shape_hint(out, (2, 1, 4))
    if hint:
        return hint
    weights = getattr(layer, "attention_weights", None)
    if weights is None:
        return _Verdict(
            False,
            "keep the weights in self.attention_weights",
            "guarde os pesos em self.attention_weights",
        )
    hint = _shape_hint(weights, (2, 1, 10))
    if hint:
        return hint
    weights, out = weights.detach().float(), out.detach().float()
    if not torch.allclose(weights.sum(-1), torch.ones(2, 1)):
        return _Verdict(
            False,
            "the weights must sum to one over the keys: take the "
            "masked_softmax of the scores",
            "os pesos precisam somar um "
            "entre as chaves: aplique masked_softmax às pontuações",
        )
    if (weights[0, :, 2:] != 0).any():
        return _Verdict(
            False,
            "a key past the valid length got a weight: pass "
            "valid_lens to masked_softmax",
            "uma chave além do comprimento "
            "válido recebeu peso: passe valid_lens para masked_softmax",
        )
    if not torch.allclose(out, torch.bmm(weights, values), atol=1e-5):
        return _Verdict(
            False,
            "the output must be the weights times the values, "
            "torch.bmm(weights, values)",
            "a saída precisa ser o produto "
            "dos pesos pelos valores, torch.bmm(weights, values)",
        )
    return None


def _score_gaps(layer, queries, keys, values, valid_lens):
    """Return each valid key's score minus the first key's, from the
    weights (log w_j - log w_0). Defined in notebook 03."""
    with torch.no_grad():
        layer(queries, keys, values, valid_lens)
    log_weights = layer.attention_weights.detach().double().log()
    return [
        log_weights[i, 0, 1:n] - log_weights[i, 0, 0]
        for i, n in enumerate(valid_lens.tolist())
    ]


def check_bilinear_attention(BilinearAttention):
    """Check exercise 03 2: a score of matrix products, any lengths.

    Defined in notebook 03.
    """
    generator = torch.Generator().manual_seed(0)
    queries = torch.randn(2, 1, 20, generator=generator)
    keys = torch.randn(2, 10, 2, generator=generator)
    values = torch.randn(2, 10, 4, generator=generator)
    valid_lens = torch.tensor([2, 6])
    layer, hint = _call_answer(BilinearAttention, 2, 20)  # key, query size
    if hint:
        return hint
    if isinstance(layer, nn.Module):
        layer.eval()
    hint = _bilinear_hint(layer, queries, keys, values, valid_lens)
    if hint:
        return hint
    gaps = _score_gaps(layer, queries, keys, values, valid_lens)
    if all(torch.allclose(gap, torch.zeros_like(gap)) for gap in gaps):
        return _Verdict(
            False,
            "the weights are uniform: the scores must depend on the "
            "query and the keys (a W initialised to zeros gives this too)",
            "os pesos são uniformes: as pontuações precisam depender da "
            "consulta e das chaves (um W inicializado com zeros também dá "
            "isso)",
        )
    # a score linear in the query and in the keys: scale either, and
    # every difference between two keys' scores scales the same way
    for factor, english, portuguese, args in (
        (
            2,
            "double when the query doubles",
            "dobram quando a consulta dobra",
            (2 * queries, keys),
        ),
        (
            2,
            "double when the keys double",
            "dobram quando as chaves dobram",
            (queries, 2 * keys),
        ),
        (
            -1,
            "change sign when the query does",
            "trocam de sinal quando a consulta troca",
            (-queries, keys),
        ),
    ):
        scaled = _score_gaps(layer, *args, values, valid_lens)
        if not all(
            torch.allclose(new, factor * old, atol=1e-4)
            for new, old in zip(scaled, gaps)
        ):
            return _Verdict(
                False,
                f"the scores do not {english}: a score made of "
                "matrix products only is linear in the query and in the "
                "keys (no tanh, no ReLU, no bias, no sum of q and k)",
                f"as pontuações não {portuguese}: uma pontuação feita só de "
                "produtos de matrizes é linear na consulta e nas chaves "
                "(sem tanh, sem ReLU, sem viés, sem soma de q e k)",
            )
    return _Verdict(
        True,
        "masked weights over the keys, and scores linear "
        "in the query and in the keys, for queries of length 20 "
        "and keys of length 2",
        "pesos mascarados sobre as "
        "chaves, e pontuações lineares na consulta e nas chaves, "
        "com consultas de comprimento 20 e chaves de "
        "comprimento 2",
    )


def _head_weights_hint(weights, layer, queries, keys, valid_lens):
    """Return what a wrong answer to exercise 04 1 got wrong, if anything.

    Defined in notebook 04.
    """
    with torch.no_grad():
        layer(queries, keys, keys, valid_lens)
    expected = layer.attention_weights
    if tuple(weights.shape) == (6, 4, 7):
        return _Verdict(
            False,
            "the shape must be (2, 3, 4, 7), got (6, 4, 7): split "
            "the batch and the heads, (batch_size * num_heads, ...) -> "
            "(batch_size, num_heads, ...)",
            "o formato precisa ser (2, 3, "
            "4, 7); recebido: (6, 4, 7): separe o minilote e as cabeças, "
            "(batch_size * num_heads, ...) -> (batch_size, num_heads, ...)",
        )
    hint = _shape_hint(weights, expected.shape)
    if hint:
        return hint
    weights = weights.detach().float()
    if not torch.allclose(weights.sum(-1), torch.ones(2, 3, 4)):
        return _Verdict(
            False,
            "each row must sum to one over the keys",
            "cada linha precisa somar um entre as chaves",
        )
    if (weights[0, :, :, 3:] != 0).any():
        return _Verdict(
            False,
            "a key past the valid length got a weight",
            "uma chave além do comprimento válido recebeu peso",
        )
    if not torch.allclose(weights, expected, atol=1e-5):
        return _Verdict(
            False,
            "these are not the weights of the heads: head h takes "
            "the dot products of features h * p to (h + 1) * p of the "
            "projected queries and keys, and divides the scores by sqrt(p)",
            "estes não são os pesos das cabeças: a cabeça h faz os produtos "
            "escalares dos atributos h * p a (h + 1) * p das consultas e "
            "chaves projetadas e divide as pontuações por sqrt(p)",
        )
    return None


def check_head_weights(head_weights):
    """Check exercise 04 1: every head's attention weights.

    Defined in notebook 04.
    """
    with torch.random.fork_rng():  # leaves the notebook's random state
        torch.manual_seed(0)
        layer = MultiHeadAttention(
            6, 5, 6, num_hiddens=12, num_heads=3, dropout=0
        ).eval()
        queries, keys = torch.randn(2, 4, 5), torch.randn(2, 7, 6)
    valid_lens = torch.tensor([3, 7])
    with torch.no_grad():
        weights, hint = _call_answer(
            head_weights, layer, queries, keys, valid_lens
        )
    hint = hint or (
        _shape_hint(weights, (2, 3, 4, 7))
        if not torch.is_tensor(weights)
        else _head_weights_hint(weights, layer, queries, keys, valid_lens)
    )
    if hint:
        return hint
    return _Verdict(
        True,
        "the weights of 3 heads, each row summing to one over the valid keys",
        "os pesos de 3 cabeças, cada linha somando um entre as chaves válidas",
    )


def check_unmasked_loss(UnmaskedCELoss):
    """Check exercise 05 2: the loss with every position counted.

    Defined in notebook 05.
    """
    generator = torch.Generator().manual_seed(0)
    pred = torch.randn(3, 5, 7, generator=generator)
    label = torch.randint(0, 7, (3, 5), generator=generator)
    valid_len = torch.tensor([2, 4, 1])  # none is the 5 steps
    loss, hint = _call_answer(UnmaskedCELoss)
    if hint:
        return hint
    out, hint = _call_answer(loss, pred, label, valid_len)
    hint = hint or _shape_hint(out, (3,))
    if hint:
        return hint
    out = out.detach().float()
    if torch.allclose(out, MaskedSoftmaxCELoss()(pred, label, valid_len)):
        return _Verdict(
            False,
            "this is the masked loss: count every position, "
            "whatever valid_len says",
            "esta é a perda mascarada: conte "
            "todas as posições, seja qual for o valid_len",
        )
    every = F.cross_entropy(pred.permute(0, 2, 1), label, reduction="none")
    if not torch.allclose(out, every.mean(dim=1)):
        return _Verdict(
            False,
            "each example's loss must be its cross-entropy summed "
            "over all the positions and divided by their number, as "
            "MaskedSoftmaxCELoss divides by num_steps",
            "a perda de cada "
            "exemplo precisa ser a entropia cruzada somada em todas as "
            "posições e dividida pelo número delas, como MaskedSoftmaxCELoss"
            " divide por num_steps",
        )
    return _Verdict(
        True,
        "every position counted, padding included",
        "todas as posições contadas, inclusive o preenchimento",
    )


def _decoder_parts(decoder_class, *sizes):
    """Return a small encoder, decoder_class(11, 8, 12, 2, *sizes), a batch of
    4 sources of 7 tokens and its encoding, or a hint. Defined in
    notebook 05."""
    with torch.random.fork_rng():  # leaves the notebook's random state
        torch.manual_seed(0)
        encoder = Seq2SeqEncoder(
            10, 8, 16 if sizes else 12, 3 if sizes else 2
        ).eval()
        decoder, hint = _call_answer(decoder_class, 11, 8, 12, 2, *sizes)
        X = torch.randint(1, 10, (4, 7))
    if hint:
        return None, hint
    decoder.eval()
    with torch.no_grad():
        return (encoder, decoder, X, encoder(X)), None


def _source_hint(decoder, encoder, X, state):
    """Return a hint unless a new source for example 0 changes its state,
    hidden and context, and no other example's. Defined in notebook 05."""
    X_new = X.clone()
    X_new[0] = X[0].flip(0)  # another sentence for example 0 only
    new = decoder.init_state(encoder(X_new), torch.full((4,), 7))
    if torch.allclose(new[0][:, 0], state[0][:, 0]):
        return _Verdict(
            False,
            "the state does not change with the source: compute it "
            "from the encoder's final state, enc_outputs[1]",
            "o estado não "
            "muda com a frase de origem: calcule-o a partir do estado final "
            "do codificador, enc_outputs[1]",
        )
    if not torch.allclose(new[0][:, 1:], state[0][:, 1:]):
        return _Verdict(
            False,
            "a new source for one example changed the state of "
            "others: keep each example in its own column of the batch (from "
            "(batch_size, num_layers * num_hiddens) to (num_layers, "
            "batch_size, num_hiddens) needs a permute, not a reshape alone)",
            "uma nova frase de origem num exemplo mudou o estado de outros: "
            "mantenha cada exemplo na própria coluna do minilote (passar de "
            "(batch_size, num_layers * num_hiddens) para (num_layers, "
            "batch_size, num_hiddens) pede um permute, não só um reshape)",
        )
    if torch.allclose(new[1][0], state[1][0]):
        return _Verdict(
            False,
            "the context does not change with the source: take the "
            "top layer of the new state, hidden[-1]",
            "o contexto não muda "
            "com a frase de origem: use a camada de cima do novo estado, "
            "hidden[-1]",
        )
    return None


def check_bridged_decoder(BridgedSeq2SeqDecoder):
    """Check exercise 05 3: the decoder's state from a wider, deeper
    encoder. Defined in notebook 05."""
    parts, hint = _decoder_parts(BridgedSeq2SeqDecoder, 16)
    if hint:
        return hint
    encoder, decoder, X, encoded = parts
    with torch.no_grad():
        state, hint = _call_answer(
            decoder.init_state, encoded, torch.full((4,), 7)
        )
        if hint:
            return hint
        if not isinstance(state, (tuple, list)) or len(state) != 2:
            return _Verdict(
                False,
                "init_state must return (hidden, context), as "
                "Seq2SeqDecoder.init_state does",
                "init_state precisa "
                "devolver (hidden, context), como Seq2SeqDecoder.init_state",
            )
        hint = _shape_hint(state[0], (2, 4, 12)) or _shape_hint(
            state[1], (4, 12)
        )
        if hint:
            return hint
        hint = _source_hint(decoder, encoder, X, state)
        if hint:
            return hint
        out, hint = _call_answer(decoder, X, state)
    if hint:
        return hint
    return _shape_hint(out[0], (4, 7, 11)) or _Verdict(
        True,
        "a decoder of 2 layers of 12 units starts from a 3-layer "
        "encoder of 16 units, and its state depends on the source",
        "um "
        "decodificador de 2 camadas de 12 unidades parte de um codificador "
        "de 3 camadas de 16 unidades, e o estado dele depende da frase de "
        "origem",
    )


def check_free_running_decoder(FreeRunningDecoder):
    """Check exercise 05 4: the decoder reads its own previous token.

    Defined in notebook 05.
    """
    parts, hint = _decoder_parts(FreeRunningDecoder)
    if hint:
        return hint
    _, decoder, X, encoded = parts
    with torch.no_grad():
        state = decoder.init_state(encoded)
        result, hint = _call_answer(decoder, X, state)
        if hint:
            return hint
        if not isinstance(result, (tuple, list)) or len(result) != 2:
            return _Verdict(
                False,
                "forward must return (outputs, state), as "
                "Seq2SeqDecoder.forward does",
                "forward precisa devolver "
                "(outputs, state), como Seq2SeqDecoder.forward",
            )
        outputs = result[0]
        hint = _shape_hint(outputs, (4, 7, 11))
        if hint:
            return hint
        outputs = outputs.float()
        forced = Seq2SeqDecoder.forward(decoder, X, state)[0]
        dec_X, expected = X[:, :1], []
        for _ in range(7):  # step by step, each step reading the last
            Y_hat, state = Seq2SeqDecoder.forward(decoder, dec_X, state)
            expected.append(Y_hat)
            dec_X = Y_hat.argmax(dim=2)
    if torch.allclose(outputs, forced, atol=1e-5):
        return _Verdict(
            False,
            "the decoder read the reference tokens (teacher "
            "forcing): after <bos>, feed it its own most likely token, "
            "Y_hat.argmax(dim=2)",
            "o decodificador leu os tokens de "
            "referência (teacher forcing): depois de <bos>, dê a ele o "
            "próprio token mais provável, Y_hat.argmax(dim=2)",
        )
    if not torch.allclose(outputs, torch.cat(expected, dim=1), atol=1e-5):
        return _Verdict(
            False,
            "the outputs are not those of a decoder that reads X's "
            "first column, then at each step its own most likely token",
            "as saídas não são as de um decodificador que lê a primeira "
            "coluna de X e depois, a cada passo, o próprio token mais "
            "provável",
        )
    final = result[1][0]  # the hidden state the answer returns
    if not (
        torch.is_tensor(final)
        and final.shape == state[0].shape
        and torch.allclose(final.float(), state[0], atol=1e-5)
    ):
        return _Verdict(
            False,
            "return the decoder's state after the last step, not "
            "the one it was given",
            "devolva o estado do decodificador "
            "depois do último passo, e não o que ele recebeu",
        )
    return _Verdict(
        True,
        "after <bos>, the decoder reads its own most "
        "likely token at every step",
        "depois de <bos>, o "
        "decodificador lê o próprio token mais provável a cada "
        "passo",
    )


def check_lstm_query(lstm_query):
    """Check exercise 06 1: the query from an LSTM's state (h, c).

    Defined in notebook 06.
    """
    generator = torch.Generator().manual_seed(0)
    # 2 layers, a batch of 3, 5 hidden units
    h, c = torch.randn(2, 2, 3, 5, generator=generator)
    query, hint = _call_answer(lstm_query, (h, c))
    if hint:
        return hint
    if (
        torch.is_tensor(query)
        and query.shape == (2, 1, 3, 5)
        and (torch.equal(query, c.unsqueeze(1)))
    ):
        return _Verdict(
            False,
            "hidden_state[-1] is c, the memory cell of every layer: "
            "take h from the pair first",
            "hidden_state[-1] é c, a célula "
            "de memória de todas as camadas: pegue primeiro o h do par",
        )
    hint = _shape_hint(query, (3, 1, 5))
    if hint:
        return hint
    for wrong, english, portuguese in (
        (
            c[-1],
            "the top layer's memory cell c",
            "a célula de memória c da camada de cima",
        ),
        (h[0], "the bottom layer's h", "o h da camada de baixo"),
    ):
        if torch.equal(query, wrong.unsqueeze(1)):
            return _Verdict(
                False,
                f"this is {english}: the query is the top layer's "
                "hidden state, h[-1]",
                f"isto é {portuguese}: a consulta é o "
                "estado oculto da camada de cima, h[-1]",
            )
    if not torch.equal(query, h[-1].unsqueeze(1)):
        return _Verdict(
            False,
            "the query must be the top layer's hidden "
            "state, h[-1], one row per example",
            "a consulta precisa ser o estado oculto da camada de "
            "cima, h[-1], uma linha por exemplo",
        )
    return _Verdict(
        True,
        "the top layer's hidden state h, one query per example",
        "o estado oculto h da camada de cima, uma consulta por exemplo",
    )


def check_context_by_hand(context_by_hand):
    """Check exercise 06 A: a context vector as a weighted sum.

    Defined in notebook 06.
    """
    generator = torch.Generator().manual_seed(0)
    weights = torch.rand(4, generator=generator).softmax(0)  # 4 tokens
    states = torch.randn(4, 6, generator=generator)  # 6 hidden units
    context, hint = _call_answer(context_by_hand, weights, states)
    hint = hint or _shape_hint(context, (6,))
    if hint:
        return hint
    context = context.float()
    if torch.allclose(context, states.sum(0)):
        return _Verdict(
            False,
            "this is the plain sum of the states: weigh each by its weight",
            "esta é a soma simples dos "
            "estados: pondere cada um pelo peso dele",
        )
    if not torch.allclose(context, weights @ states, atol=1e-6):
        return _Verdict(
            False,
            "the context must be the sum of alpha_t h_t "
            "over the source tokens",
            "o contexto precisa ser a "
            "soma de alpha_t h_t sobre os tokens da frase de "
            "origem",
        )
    return _Verdict(
        True,
        "the weighted sum of the states, for 4 tokens of 6 hidden units",
        "a soma ponderada dos estados, para 4 tokens de 6 unidades ocultas",
    )


def _projects_again(layer, queries, keys, values, valid_lens, expected):
    """Return whether layer, given the raw keys, gives expected: then it
    multiplies them by W_k itself. Defined in notebook 06."""
    try:
        out = layer(queries, keys, values, valid_lens)
    except Exception:
        return False
    return torch.is_tensor(out) and torch.allclose(out, expected, atol=1e-5)


def check_precomputed_keys(PrecomputedKeysAttention):
    """Check exercise 06 B: additive attention fed W_k k, computed once.

    Defined in notebook 06.
    """
    with torch.random.fork_rng():  # leaves the notebook's random state
        torch.manual_seed(0)
        additive = AdditiveAttention(4, 5, 6, dropout=0).eval()
        queries, keys = torch.randn(2, 3, 5), torch.randn(2, 7, 4)
        values = torch.randn(2, 7, 2)
    valid_lens = torch.tensor([2, 7])
    layer, hint = _call_answer(PrecomputedKeysAttention, 4, 5, 6, 0)
    if hint:
        return hint
    try:
        layer.load_state_dict(additive.state_dict())
    except (RuntimeError, AttributeError):
        return _Verdict(
            False,
            "keep AdditiveAttention's parameters (W_q, W_k, w_v): "
            "only forward changes",
            "mantenha os parâmetros de "
            "AdditiveAttention (W_q, W_k, w_v): só o forward muda",
        )
    layer.eval()
    with torch.no_grad():
        expected = additive(queries, keys, values, valid_lens)
        out, hint = _call_answer(
            layer, queries, additive.W_k(keys), values, valid_lens
        )
        if hint and _projects_again(
            layer, queries, keys, values, valid_lens, expected
        ):
            return _Verdict(
                False,
                "the keys come already multiplied by W_k: do not "
                "apply it again",
                "as chaves já vêm multiplicadas por W_k: "
                "não aplique W_k de novo",
            )
    hint = hint or _shape_hint(out, (2, 3, 2))
    if hint:
        return hint
    if not torch.allclose(out.float(), expected, atol=1e-5):
        return _Verdict(
            False,
            "the output differs from AdditiveAttention's on the same "
            "keys: the projected keys take the place of W_k(keys), and "
            "nothing else changes",
            "a saída difere da de AdditiveAttention"
            " com as mesmas chaves: as chaves projetadas entram no lugar de "
            "W_k(keys), e nada mais muda",
        )
    weights = getattr(layer, "attention_weights", None)
    if not torch.is_tensor(weights) or not torch.allclose(
        weights.float(), additive.attention_weights
    ):
        return _Verdict(
            False,
            "keep the weights in self.attention_weights",
            "guarde os pesos em self.attention_weights",
        )
    return _Verdict(
        True,
        "the output and the weights of AdditiveAttention, "
        "without multiplying the keys by W_k",
        "a saída e os "
        "pesos de AdditiveAttention, sem multiplicar as chaves "
        "por W_k",
    )


def _book_formula(row, exponents, penalty):
    """Return 100 x BP x prod p_n ** w_n for a row of counts (matches for
    n = 1..4, totals, translation length, reference length). Defined in
    notebook 07."""
    score = 100 * math.prod(
        (row[n] / row[4 + n]) ** w for n, w in enumerate(exponents)
    )
    return score * math.exp(min(0, 1 - row[9] / row[8])) if penalty else score


def _brevity_hint(score, row, exponents, penalty):
    """Return a hint if score is the formula with a brevity penalty that
    swaps r and c or forgets the min. Defined in notebook 07."""
    plain = _book_formula(row, exponents, False)
    c, r = row[8], row[9]  # the translation's length, the reference's
    if penalty and math.isclose(
        score, plain * math.exp(min(0, 1 - c / r)), rel_tol=1e-9
    ):
        return _Verdict(
            False,
            "r and c are swapped: the brevity penalty is exp(min(0, "
            "1 - r / c)), r the reference length, c the translation's",
            "r e c estão trocados: a penalidade de brevidade é exp(min(0, "
            "1 - r / c)), sendo r o comprimento da referência e c o da "
            "tradução",
        )
    if penalty and math.isclose(
        score, plain * math.exp(1 - r / c), rel_tol=1e-9
    ):
        return _Verdict(
            False,
            "the brevity penalty never exceeds 1: exp(min(0, 1 - r / c))",
            "a penalidade de brevidade nunca passa de 1: exp(min(0, "
            "1 - r / c))",
        )
    return None


def check_score_of_counts(score_of_counts):
    """Check exercise 07 A: the book's score from a row of counts.

    Defined in notebook 07.
    """
    # matches and totals for n = 1..4, translation and reference lengths
    # one translation longer than its reference, then one shorter
    rows = [
        [30, 12, 5, 2, 40, 35, 30, 25, 40, 38],
        [7, 2, 1, 0, 9, 8, 7, 6, 9, 12],
    ]
    cases = [
        (row, exponents, penalty)
        for row in rows
        for exponents in ([1 / 2, 1 / 4], [1 / 2, 1 / 2])
        for penalty in (True, False)
    ]
    for row, exponents, penalty in cases:
        score, hint = _call_answer(score_of_counts, row, exponents, penalty)
        if hint:
            return hint
        if not isinstance(score, (int, float)):
            kind = type(score).__name__
            return _Verdict(
                False,
                f"the score must be a number (a tensor's .item()), got {kind}",
                "a pontuação precisa ser "
                "um número (o .item() de um tensor); recebido: "
                f"{kind}",
            )
        expected = _book_formula(row, exponents, penalty)
        if math.isclose(score, expected, rel_tol=1e-9):
            continue
        if math.isclose(100 * score, expected, rel_tol=1e-9):
            return _Verdict(False, "multiply by 100", "multiplique por 100")
        if math.isclose(
            score, _book_formula(row, exponents, not penalty), rel_tol=1e-9
        ):
            return _Verdict(
                False,
                f"with penalty={penalty}, the brevity penalty "
                f"exp(min(0, 1 - r / c)) must be "
                f"{'in' if penalty else 'left out'}",
                f"com penalty="
                f"{penalty}, a penalidade de brevidade exp(min(0, 1 - r / c))"
                f" {'precisa entrar' if penalty else 'precisa ficar de fora'}",
            )
        hint = _brevity_hint(score, row, exponents, penalty)
        if hint:
            return hint
        return _Verdict(
            False,
            f"with exponents {exponents}, the score is not 100 x the "
            f"product of the p_n ** w_n (p_n: matches / totals)",
            "com os "
            f"expoentes {exponents}, a pontuação não é 100 x o produto dos "
            f"p_n ** w_n (p_n: coincidências / totais)",
        )
    return _Verdict(
        True,
        "the book's formula on two rows of counts, with "
        "both pairs of exponents, with and without the brevity "
        "penalty",
        "a fórmula do livro em duas linhas de "
        "contagens, com os dois pares de expoentes, com e sem a "
        "penalidade de brevidade",
    )
