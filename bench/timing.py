"""The benches' one way to time: torch.utils.benchmark.Timer in rounds."""

from torch.utils.benchmark import Timer


def interleaved(calls, num_threads, rounds, min_run_time):
    """Return {name: [seconds per call, one figure per round]}.

    Each round times every call once (Timer.blocked_autorange: at least
    min_run_time seconds of calls at num_threads threads, after its own
    warm-up; the median of its blocks), in an order that rotates from round
    to round, so that a change in the machine's load hits them all alike.
    """
    timers = {
        name: Timer("fn()", globals={"fn": fn}, num_threads=num_threads)
        for name, fn in calls.items()
    }
    names = list(calls)
    times = {name: [] for name in names}
    for r in range(rounds):
        shift = r % len(names)
        for name in names[shift:] + names[:shift]:
            measurement = timers[name].blocked_autorange(
                min_run_time=min_run_time
            )
            times[name].append(measurement.median)
    return times


def thread_counts(text, default):
    """Parse --threads, e.g. "1,default": the counts, without repeats."""
    return list(
        dict.fromkeys(
            default if part == "default" else int(part)
            for part in text.split(",")
        )
    )
