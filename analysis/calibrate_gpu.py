#!/usr/bin/env python3
"""Measures a GPU's matrix-product rate by size and dtype, its HBM copy bandwidth and its launch overhead.

Runs on a machine with an NVIDIA GPU and PyTorch (not part of the build or the tests). Writes one CSV
row per measurement to stdout or --out; models/calibration/README.md says how the figures become model
parameters. Timing: CUDA events around `reps` back-to-back launches after 3 warm-ups, median of 5 such
batches. Inputs are random normal values (zeros run faster on Hopper and would flatter the figures).
"""
import argparse
import csv
import statistics
import sys

import torch


def time_launches(fn, reps):
    """Median seconds per call of fn over 5 batches of reps calls each."""
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    per_call = []
    for _ in range(5):
        start = torch.cuda.Event(enable_timing=True)
        stop = torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(reps):
            fn()
        stop.record()
        stop.synchronize()
        per_call.append(start.elapsed_time(stop) / 1e3 / reps)
    return statistics.median(per_call)


def reps_for(flops_or_bytes, rate):
    """About 20 ms of work per batch, at least 3 calls."""
    return max(3, min(2000, int(0.02 * rate / max(flops_or_bytes, 1.0))))


def gemm_fn(dtype, m, n, k):
    if dtype == "fp8":
        a = torch.randn(m, k, device="cuda").to(torch.float8_e4m3fn)
        b = torch.randn(n, k, device="cuda").to(torch.float8_e4m3fn).t()  # column-major, as cuBLASLt wants
        one = torch.ones((), device="cuda")
        return lambda: torch._scaled_mm(a, b, scale_a=one, scale_b=one, out_dtype=torch.bfloat16)
    torch_dtype = {"bf16": torch.bfloat16, "fp16": torch.float16, "tf32": torch.float32}[dtype]
    torch.backends.cuda.matmul.allow_tf32 = dtype == "tf32"
    a = torch.randn(m, k, device="cuda", dtype=torch_dtype)
    b = torch.randn(k, n, device="cuda", dtype=torch_dtype)
    return lambda: torch.mm(a, b)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", help="CSV file to write (default stdout)")
    args = parser.parse_args()
    out = open(args.out, "w", newline="") if args.out else sys.stdout
    writer = csv.writer(out)
    writer.writerow(["measurement", "dtype", "m", "n", "k", "work", "seconds", "rate", "rate_unit"])
    props = torch.cuda.get_device_properties(0)
    print(f"# {props.name}, {props.multi_processor_count} SMs, torch {torch.__version__}", file=sys.stderr)

    square = [256, 512, 1024, 2048, 3072, 4096, 6144, 8192, 12288, 16384]
    # Transformer-shaped products: tokens x (hidden, 3*hidden/tp, 4*hidden/tp) for a few hidden sizes.
    shaped = [(4096, 1536, 12288), (4096, 12288, 6144), (8192, 6144, 8192), (16384, 2048, 8192),
              (2048, 4096, 4096), (1024, 14336, 4096), (512, 4096, 14336)]
    for dtype in ["bf16", "fp16", "fp8", "tf32"]:
        for m, n, k in [(s, s, s) for s in square] + shaped:
            try:
                fn = gemm_fn(dtype, m, n, k)
            except (RuntimeError, AttributeError) as e:  # fp8 needs a recent cuBLASLt
                print(f"# skip {dtype} {m}x{n}x{k}: {e}", file=sys.stderr)
                continue
            flops = 2.0 * m * n * k
            seconds = time_launches(fn, reps_for(flops, 5e14))
            writer.writerow(["gemm", dtype, m, n, k, f"{flops:.6g}", f"{seconds:.6g}", f"{flops / seconds / 1e12:.2f}",
                             "TFLOP/s"])
            out.flush()
            del fn
            torch.cuda.empty_cache()

    for mib in [1, 16, 256, 2048]:
        elems = mib * 2**20 // 2
        src = torch.randn(elems, device="cuda", dtype=torch.bfloat16)
        dst = torch.empty_like(src)
        moved = 2.0 * src.numel() * 2  # read and write
        seconds = time_launches(lambda: dst.copy_(src), reps_for(moved, 3e12))
        writer.writerow(["copy", "bf16", elems, 1, 1, f"{moved:.6g}", f"{seconds:.6g}", f"{moved / seconds / 1e12:.3f}",
                         "TB/s"])
        del src, dst

    tiny = torch.zeros(1, device="cuda")
    seconds = time_launches(lambda: tiny.add_(1.0), 2000)
    writer.writerow(["launch", "fp32", 1, 1, 1, "0", f"{seconds:.6g}", "", ""])


if __name__ == "__main__":
    main()
