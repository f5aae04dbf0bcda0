"""Paired statistics shared by the benchmark scripts."""
import math


def wilcoxon_p(diffs):
    """Two-sided Wilcoxon signed-rank p: exact up to 20 non-zero pairs, else the normal approximation."""
    d = [x for x in diffs if x != 0]
    n = len(d)
    if n == 0:
        return 1.0
    order = sorted(range(n), key=lambda i: abs(d[i]))
    ranks = [0.0] * n
    i = 0
    while i < n:
        j = i
        while j + 1 < n and abs(d[order[j + 1]]) == abs(d[order[i]]):
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        i = j + 1
    w = sum(r for r, x in zip(ranks, d) if x > 0)
    total = n * (n + 1) / 2
    if n <= 20:
        # distribution of the positive rank sum over all sign assignments (ranks doubled to stay integral)
        counts = {0: 1}
        for r in ranks:
            r2 = int(round(2 * r))
            nxt = dict(counts)
            for s, c in counts.items():
                nxt[s + r2] = nxt.get(s + r2, 0) + c
            counts = nxt
        w2 = int(round(2 * w))
        lo = sum(c for s, c in counts.items() if s <= w2)
        hi = sum(c for s, c in counts.items() if s >= w2)
        return min(1.0, 2 * min(lo, hi) / 2 ** n)
    mean = total / 2
    sd = math.sqrt(n * (n + 1) * (2 * n + 1) / 24)
    z = (abs(w - mean) - 0.5) / sd
    return math.erfc(z / math.sqrt(2))
