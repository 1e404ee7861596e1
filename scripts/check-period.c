/* An independent check of one subtraction game's period, sharing no code with nimseq:
 *
 *   cc -O2 -o check-period scripts/check-period.c
 *   ./check-period P Q m1,m2,...,c      (moves sorted, at most 63: values stay below 64)
 *
 * computes G(0 .. Q + P + c] by the plain mex recurrence, one byte per value, then checks the
 * window certificate of docs/subtraction.md, section 2: G(x + P) = G(x) for x in [Q, Q + c);
 * that Q is least (G(Q - 1) != G(Q - 1 + P)); and that P is least (for each prime r | P,
 * P / r fails the same window). Prints one line; exit code 1 if any check fails.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: %s P Q m1,m2,...,c\n", argv[0]);
        return 2;
    }
    long p = atol(argv[1]), q = atol(argv[2]);
    long moves[64];
    int k = 0;
    for (char *s = argv[3]; *s; k++) {
        if (k == 63) {
            fprintf(stderr, "more than 63 moves\n");
            return 2;
        }
        moves[k] = strtol(s, &s, 10);
        if (*s == ',') s++;
    }
    long c = k ? moves[k - 1] : 0, n = q + p + c + 1;
    uint8_t *g = c > 0 && p > 0 && q >= 0 ? malloc(n) : NULL;
    if (!g) {
        fprintf(stderr, "bad input or out of memory\n");
        return 2;
    }
    for (long x = 0; x < n; x++) {
        uint64_t seen = 0;
        for (int i = 0; i < k && moves[i] <= x; i++) seen |= 1ull << g[x - moves[i]];
        int v = 0;
        while (seen >> v & 1) v++;
        g[x] = v;
    }
    long bad = 0;
    for (long x = q; x < q + c; x++) bad += g[x] != g[x + p];
    int q_least = q == 0 || g[q - 1] != g[q - 1 + p];
    int p_least = 1;
    long rest = p;
    for (long r = 2; rest > 1; r++) {
        if (r * r > rest) r = rest;
        if (rest % r) continue;
        while (rest % r == 0) rest /= r;
        long d = p / r, mismatches = 0;
        for (long x = q; x < q + c && !mismatches; x++) mismatches += g[x] != g[x + d];
        if (!mismatches) p_least = 0;
    }
    printf("{%s} p = %ld, q = %ld: window %s, q least %s, p least %s\n", argv[3], p, q,
           bad ? "FAILS" : "ok", q_least ? "ok" : "FAILS", p_least ? "ok" : "FAILS");
    return bad || !q_least || !p_least;
}
