#!/usr/bin/env python3
"""flash_pf_model.py - the synchronisation of kernels/flash_wgmma.cu's
persistent forward (flash_wg_forward_pf_kernel, 128-key tiles, 2 stages)
as a model on the CPU: the producer and the two consumer warpgroups of one
block are coroutines run in a random order; mbarriers (phase parity,
expected arrivals: 128 producer threads, 8 consumer warps) and the two
named turn barriers (256 threads) as the hardware counts them. It checks,
for blocks walking several tiles of every length, that nothing waits
forever, that each consumer reads and gives back exactly the K and V
tiles the producer put in each stage, and that every tile is done once by
each consumer. A hand-made model of the kernel's protocol, not the kernel:
written for round 8, when no GPU was left to run the kernel on; keep it in
step with pf_produce / pf_consume if they change.

    python3 bench/flash_pf_model.py            # ok, or an AssertionError
    python3 bench/flash_pf_model.py --mutant   # without the last V stage's
                                               # release: must deadlock
"""
import random
import sys

NS = 2
MUTANT = "--mutant" in sys.argv


class MBar:
    """An mbarrier: a phase completes when its expected arrivals are in;
    a wait for parity p passes once the phase of that parity is done (a
    fresh barrier passes parity 1)."""

    def __init__(self, count):
        self.count, self.pending, self.phase = count, count, 0

    def arrive(self, n):
        self.pending -= n
        assert self.pending >= 0
        if self.pending == 0:
            self.phase += 1
            self.pending = self.count

    def passed(self, parity):
        return (self.phase & 1) != parity


class Named:
    """A named barrier (bar.sync / bar.arrive): a generation completes when
    n threads have arrived; later arrivals count towards the next."""

    def __init__(self, n):
        self.n, self.cnt, self.gen = n, 0, 0

    def arrive(self, k):
        self.cnt += k
        g = self.gen
        if self.cnt >= self.n:
            self.cnt -= self.n
            self.gen += 1
        return g


def run(BH, nqb, grid, seed):
    rnd = random.Random(seed)
    full = [MBar(128) for _ in range(2 * NS)]   # K stages, V stages
    empty = [MBar(8) for _ in range(2 * NS)]
    named = {i: Named(256) for i in (2, 3)}
    stK, stV = [None] * NS, [None] * NS
    done_tiles = []
    tiles = BH * nqb
    def tile(u): return nqb - 1 - u // BH, u % BH
    def producer(blk):
        c = 0
        for u in range(blk, tiles, grid):
            qb, bh = tile(u)
            for j in range(qb + 1):
                st, fp = c % NS, ((c // NS) & 1) ^ 1
                while not empty[st].passed(fp): yield 'spin'
                stK[st] = (u, j); full[st].arrive(128); yield
                while not empty[NS + st].passed(fp): yield 'spin'
                stV[st] = (u, j); full[NS + st].arrive(128); yield
                c += 1
    def nsync(i, k=128):
        g = named[i].arrive(k)
        while named[i].gen <= g: yield 'spin'
    def consumer(blk, cw):
        c = 0
        for u in range(blk, tiles, grid):
            qb, bh = tile(u)
            jl, n0 = qb, qb + 2
            def turn_begin(turn):
                if cw == 0 or turn < n0:
                    yield from nsync(2 + cw)
            def turn_end(turn):
                if cw == 0 or turn + 1 < n0:
                    named[3 - cw].arrive(128)
                yield
            if cw == 1: named[2].arrive(128)
            while not full[c % NS].passed((c // NS) & 1): yield 'spin'
            assert stK[c % NS] == (u, 0), (stK, u)
            yield from turn_begin(0); yield from turn_end(0)
            empty[c % NS].arrive(4); yield
            for j in range(1, jl + 1):
                n = c + j; st, sp = n % NS, (n - 1) % NS
                while not full[st].passed((n // NS) & 1): yield 'spin'
                while not full[NS + sp].passed(((n - 1) // NS) & 1): yield 'spin'
                assert stK[st] == (u, j) and stV[sp] == (u, j - 1)
                yield from turn_begin(j); yield from turn_end(j)
                assert stK[st] == (u, j); empty[st].arrive(4); yield
                assert stV[sp] == (u, j - 1); empty[NS + sp].arrive(4); yield
            n = c + jl; sp = n % NS
            while not full[NS + sp].passed((n // NS) & 1): yield 'spin'
            assert stV[sp] == (u, jl)
            yield from turn_begin(jl + 1); yield from turn_end(jl + 1)
            assert stV[sp] == (u, jl)
            if not MUTANT:  # the release the per-tile kernel leaves out
                empty[NS + sp].arrive(4)
            yield
            done_tiles.append((u, cw))
            c += qb + 1
    for blk in range(grid):
        for i in range(2 * NS):
            full[i].__init__(128); empty[i].__init__(8)
        named[2].__init__(256); named[3].__init__(256)
        stK[:] = [None] * NS; stV[:] = [None] * NS
        co = [producer(blk), consumer(blk, 0), consumer(blk, 1)]
        alive = list(co); stall = 0
        while alive:
            g = rnd.choice(alive)
            try:
                r = next(g)
                stall = stall + 1 if r == 'spin' else 0
            except StopIteration: alive.remove(g); stall = 0
            assert stall < 100000, "deadlock"
    exp = sorted((u, cw) for u in range(tiles) for cw in (0, 1))
    assert sorted(done_tiles) == exp
    return len(done_tiles)

# (heads, query blocks, blocks): the harness's small shapes on 3 blocks,
# and blocks walking tiles of 1..16 key tiles, the parities wrapping
for seed in range(30):
    for BH, nqb, grid in ((8, 2, 3), (4, 2, 3), (16, 4, 5), (6, 16, 7), (3, 5, 2)):
        run(BH, nqb, grid, seed)
print("ok: no deadlock, every tile once per consumer, stage contents as expected")
