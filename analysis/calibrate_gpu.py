#!/usr/bin/env python3
"""Measures a GPU's matrix-product rate by size and dtype, its HBM copy bandwidth, its launch overhead, and how
much a concurrent communication-like copy slows matrix products down.

Runs on a machine with an NVIDIA GPU and PyTorch (not part of the build or the tests). Writes one CSV
row per measurement to stdout or --out; models/calibration/README.md says how the figures become model
parameters. Timing: CUDA events around `reps` back-to-back launches after 3 warm-ups, median of 5 such
batches. Inputs are random normal values (zeros run faster on Hopper and would flatter the figures).
Sections (--sections): `gemm` and `copy` as above, `launch` (a tiny kernel from Python), `graph` (small products and
a tiny kernel replayed from a CUDA graph, so the host's launch path does not bound them), `overlap` (products timed
while a copy kernel of B thread blocks, standing in for a collective's NCCL channels, runs on another stream; each
product has three rows: alone, under the copy, alone again), `sustained` (one product run back to back for
--seconds, one row per window of about a second with the SM clock, power and temperature nvidia-smi reads during it,
after a row of its rate timed as the `gemm` section times products), `layer` (a GPT-style transformer layer's
forward and backward in bf16 at --layer's shapes, one tensor-parallel rank's shard without its communication, run
back to back for --seconds, one row per window as `sustained`), `wgrad` (the weight-gradient products of GPT-3 175B's
layer at tp 4, 2048 tokens, three ways: a bf16 result, accumulated into a bf16 main gradient and accumulated into an
fp32 one, as Megatron-LM's gradient accumulation fusion does).
"""
import argparse
import csv
import statistics
import subprocess
import sys
import time

import torch

try:  # the overlap section's copy kernel
    import triton
    import triton.language as tl
except ImportError:  # pragma: no cover
    triton = None


def launch_batch(fn, reps):
    """Queues reps back-to-back calls of fn between two CUDA events; returns a callable that waits for them
    and gives the seconds per call."""
    start = torch.cuda.Event(enable_timing=True)
    stop = torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(reps):
        fn()
    stop.record()

    def seconds_per_call():
        stop.synchronize()
        return start.elapsed_time(stop) / 1e3 / reps

    return seconds_per_call


def time_launches(fn, reps):
    """Median seconds per call of fn over 5 batches of reps calls each."""
    for _ in range(3):
        fn()
    torch.cuda.current_stream().synchronize()  # not the device: another stream's work may be running
    return statistics.median(launch_batch(fn, reps)() for _ in range(5))


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


def try_gemm_fn(dtype, m, n, k):
    """gemm_fn's product, or None (said on stderr) where this GPU's cuBLASLt cannot run it (fp8 needs a recent one)."""
    try:
        return gemm_fn(dtype, m, n, k)
    except (RuntimeError, AttributeError) as e:
        print(f"# skip {dtype} {m}x{n}x{k}: {e}", file=sys.stderr)
        return None


def time_graph(fn, per_graph, reps=20):
    """Median seconds per call of fn, replayed from a CUDA graph of per_graph calls."""
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(3):
            fn()
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for _ in range(per_graph):
            fn()
    return time_launches(graph.replay, reps) / per_graph


if triton is not None:
    @triton.jit
    def _copy_passes(src, dst, per_block, passes, BLOCK: tl.constexpr):
        base = tl.program_id(0).to(tl.int64) * per_block
        for _ in range(passes):
            for offset in range(0, per_block, BLOCK):
                index = base + offset + tl.arange(0, BLOCK)
                tl.store(dst + index, tl.load(src + index))


def copy_kernel(blocks, passes):
    """A copy kernel of `blocks` thread blocks moving 64 MiB per block per pass; returns (launch, bytes)."""
    per_block = 32 * 2**20  # bf16 elements
    src = torch.randn(blocks * per_block, device="cuda", dtype=torch.bfloat16)
    dst = torch.empty_like(src)

    def launch():
        _copy_passes[(blocks,)](src, dst, per_block, passes, BLOCK=4096, num_warps=8)

    return launch, 2.0 * src.numel() * 2 * passes


def measure_overlap(writer, out):
    """Products alone and while a copy of B blocks runs on a second stream (B = 0 is alone)."""
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    shapes = [(8192, 8192, 8192), (4096, 12288, 6144), (8192, 6144, 8192), (2048, 4096, 4096)]
    for blocks in [8, 16, 32, sms]:
        launch, moved = copy_kernel(blocks, 1)
        copy_alone = time_launches(launch, 5)
        writer.writerow(["copy_blocks", "bf16", blocks, 1, 1, f"{moved:.6g}", f"{copy_alone:.6g}",
                         f"{moved / copy_alone / 1e12:.3f}", "TB/s"])
        for m, n, k in shapes:
            fn = gemm_fn("bf16", m, n, k)
            flops = 2.0 * m * n * k
            reps = reps_for(flops, 5e14)
            alone = time_launches(fn, reps)
            # The copy runs for about 4x the products' batches (3 warm-ups + 5 batches of ~20 ms).
            passes = max(1, int(4 * 8 * reps * alone / copy_alone))
            long_copy, long_moved = copy_kernel(blocks, passes)
            side, main = torch.cuda.Stream(), torch.cuda.Stream()
            torch.cuda.synchronize()
            copy_start, copy_stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            with torch.cuda.stream(side):
                copy_start.record()
                long_copy()
                copy_stop.record()
            with torch.cuda.stream(main):
                products_start = time.perf_counter()
                under_copy = time_launches(fn, reps)
                products_span = time.perf_counter() - products_start
            copy_stop.synchronize()
            alone_after = time_launches(fn, reps)  # clocks vary by a few percent between batches
            copy_seconds = copy_start.elapsed_time(copy_stop) / 1e3
            if copy_seconds < products_span:
                print(f"# copy of {blocks} blocks ended before the {m}x{n}x{k} products", file=sys.stderr)
            for label, seconds in [("overlap_alone", alone), ("overlap_under_copy", under_copy),
                                   ("overlap_alone", alone_after)]:
                writer.writerow([label, "bf16", m, n, k, f"{flops:.6g}", f"{seconds:.6g}",
                                 f"{flops / seconds / 1e12:.2f}", f"TFLOP/s copy_blocks={blocks}"])
            writer.writerow(["overlap_copy", "bf16", blocks, 1, 1, f"{long_moved:.6g}", f"{copy_seconds:.6g}",
                             f"{long_moved / copy_seconds / 1e12:.3f}", f"TB/s with {m}x{n}x{k} products"])
            out.flush()
            del fn, long_copy
            torch.cuda.empty_cache()


def gpu_sample():
    """(SM clock MHz, power W, temperature C) of GPU 0 from nvidia-smi, or empty strings when it cannot say."""
    query = "--query-gpu=clocks.sm,power.draw,temperature.gpu"
    try:
        line = subprocess.run(["nvidia-smi", query, "--format=csv,noheader,nounits", "-i", "0"], capture_output=True,
                              text=True, timeout=10).stdout.strip().splitlines()[0]
        return tuple(field.strip() for field in line.split(","))
    except (OSError, IndexError, subprocess.SubprocessError):
        return ("", "", "")


def run_windows(fn, per_call_guess, seconds):
    """Runs fn back to back for `seconds` in windows of about one second; yields (elapsed s, seconds per call,
    sample) per window, the sample taken while the window's calls run on the GPU."""
    reps = max(3, int(1.0 / max(per_call_guess, 1e-6)))
    began = time.perf_counter()
    while time.perf_counter() - began < seconds:
        batch = launch_batch(fn, reps)
        sample = gpu_sample()  # the launches are queued: the GPU is busy with them meanwhile
        per_call = batch()
        yield time.perf_counter() - began, per_call, sample


def measure_sustained(writer, out, seconds):
    """bf16 and fp8 products of GPT-3 175B's feed-forward shape at tp 4 (2048 tokens, 12288 x 12288), back to back."""
    m, n, k = 2048, 12288, 12288
    for dtype in ["bf16", "fp8"]:
        fn = try_gemm_fn(dtype, m, n, k)
        if fn is None:
            continue
        flops = 2.0 * m * n * k
        burst = time_launches(fn, reps_for(flops, 5e14))
        writer.writerow(["sustained_burst", dtype, m, n, k, f"{flops:.6g}", f"{burst:.6g}",
                         f"{flops / burst / 1e12:.2f}", "TFLOP/s as the gemm section times it"])
        for elapsed, per_call, (clock, power, temp) in run_windows(fn, burst, seconds):
            writer.writerow(["sustained", dtype, m, n, k, f"{flops:.6g}", f"{per_call:.6g}",
                             f"{flops / per_call / 1e12:.2f}",
                             f"TFLOP/s t={elapsed:.1f}s sm_mhz={clock} watts={power} celsius={temp}"])
            out.flush()
        del fn
        torch.cuda.empty_cache()


def layer_step(tokens, hidden, heads, head_dim, ffn):
    """One pre-norm GPT layer shard (LayerNorm, QKV, causal flash attention, output projection, residual,
    LayerNorm, GELU FFN, residual) in bf16: returns (forward+backward callable, model FLOPs per call)."""
    import torch.nn.functional as F
    bf16 = {"device": "cuda", "dtype": torch.bfloat16}
    width = heads * head_dim

    def weight(rows, cols):
        return (torch.randn(rows, cols, **bf16) * rows ** -0.5).requires_grad_()

    w_qkv, w_proj = weight(hidden, 3 * width), weight(width, hidden)
    w_fc1, w_fc2 = weight(hidden, ffn), weight(ffn, hidden)
    norm1, norm2 = torch.nn.LayerNorm(hidden, **bf16), torch.nn.LayerNorm(hidden, **bf16)
    x = torch.randn(tokens, hidden, **bf16, requires_grad=True)
    grad = torch.randn(tokens, hidden, **bf16)

    def step():
        q, k, v = (norm1(x) @ w_qkv).view(tokens, 3, heads, head_dim).permute(1, 2, 0, 3).unbind(0)
        attended = F.scaled_dot_product_attention(q[None], k[None], v[None], is_causal=True)[0]
        h = x + attended.permute(1, 0, 2).reshape(tokens, width) @ w_proj
        y = h + F.gelu(norm2(h) @ w_fc1, approximate="tanh") @ w_fc2
        y.backward(grad)
        for t in (x, w_qkv, w_proj, w_fc1, w_fc2, *norm1.parameters(), *norm2.parameters()):
            t.grad = None

    matrices = 2.0 * tokens * (hidden * 3 * width + width * hidden + 2 * hidden * ffn)
    scores = 4.0 * tokens * tokens * width  # QK^T and AV over the full square (Megatron-LM's convention)
    return step, 3.0 * (matrices + scores)


def measure_layer(writer, out, shape, seconds):
    tokens, hidden, heads, head_dim, ffn = shape
    step, flops = layer_step(tokens, hidden, heads, head_dim, ffn)
    burst = time_launches(step, 5)
    writer.writerow(["layer_burst", "bf16", tokens, hidden, ffn, f"{flops:.6g}", f"{burst:.6g}",
                     f"{flops / burst / 1e12:.2f}", f"TFLOP/s heads={heads} head_dim={head_dim}, 5 batches of 5"])
    # m, n, k hold tokens, hidden and ffn; the unit column the heads and the head width.
    for elapsed, per_call, (clock, power, temp) in run_windows(step, burst, seconds):
        writer.writerow(["layer", "bf16", tokens, hidden, ffn, f"{flops:.6g}", f"{per_call:.6g}",
                         f"{flops / per_call / 1e12:.2f}",
                         f"TFLOP/s heads={heads} head_dim={head_dim} t={elapsed:.1f}s sm_mhz={clock} watts={power} "
                         f"celsius={temp}"])
        out.flush()


def wgrad_fns(m, n, k):
    """dW (m x n) = dY^T (m x k) @ X (k x n) in bf16: {label: callable} for a bf16 result, the product accumulated
    into a bf16 main gradient, and accumulated into an fp32 one (cuBLAS with beta 1; the fp32 path needs a PyTorch
    whose addmm takes out_dtype)."""
    bf16 = {"device": "cuda", "dtype": torch.bfloat16}
    dy_t, x = torch.randn(m, k, **bf16), torch.randn(k, n, **bf16)
    grad16 = torch.zeros(m, n, **bf16)
    grad32 = torch.zeros(m, n, device="cuda", dtype=torch.float32)
    fns = {"wgrad": lambda: torch.mm(dy_t, x), "wgrad_accumulate_bf16": lambda: grad16.addmm_(dy_t, x)}
    try:
        torch.addmm(grad32, dy_t, x, out_dtype=torch.float32, out=grad32)
        fns["wgrad_accumulate_fp32"] = lambda: torch.addmm(grad32, dy_t, x, out_dtype=torch.float32, out=grad32)
    except (RuntimeError, TypeError) as e:
        print(f"# skip wgrad_accumulate_fp32 {m}x{n}x{k}: {e}", file=sys.stderr)
    return fns


def measure_wgrad(writer, out):
    """GPT-3 175B's weight gradients at tp 4 (2048 tokens): QKV 9216 x 12288, projection 12288 x 3072, FC1
    12288 x 12288 (output x input), FC2 the same; each way timed as the gemm section times products."""
    tokens = 2048
    for m, n in [(9216, 12288), (12288, 3072), (12288, 12288)]:
        flops = 2.0 * m * n * tokens
        for label, fn in wgrad_fns(m, n, tokens).items():
            seconds = time_launches(fn, reps_for(flops, 5e14))
            writer.writerow([label, "bf16", m, n, tokens, f"{flops:.6g}", f"{seconds:.6g}",
                             f"{flops / seconds / 1e12:.2f}", "TFLOP/s"])
            out.flush()
        torch.cuda.empty_cache()


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", help="CSV file to write (default stdout)")
    parser.add_argument("--sections", default="gemm,copy,launch",
                        help="comma-separated: gemm, copy, launch, graph, overlap, sustained, layer, wgrad "
                             "(default gemm,copy,launch)")
    parser.add_argument("--seconds", type=float, default=60.0,
                        help="how long `sustained` runs each dtype and `layer` runs its layer (default 60)")
    parser.add_argument("--layer", default="2048,12288,24,128,12288",
                        help="tokens,hidden,heads,head_dim,ffn of `layer` (default: GPT-3 175B's layer at tp 4, "
                             "2048 tokens)")
    args = parser.parse_args()
    sections = set(args.sections.split(","))
    out = open(args.out, "w", newline="") if args.out else sys.stdout
    writer = csv.writer(out)
    writer.writerow(["measurement", "dtype", "m", "n", "k", "work", "seconds", "rate", "rate_unit"])
    props = torch.cuda.get_device_properties(0)
    print(f"# {props.name}, {props.multi_processor_count} SMs, torch {torch.__version__}", file=sys.stderr)

    square = [256, 512, 1024, 2048, 3072, 4096, 6144, 8192, 12288, 16384]
    # Transformer-shaped products: tokens x (hidden, 3*hidden/tp, 4*hidden/tp) for a few hidden sizes.
    shaped = [(4096, 1536, 12288), (4096, 12288, 6144), (8192, 6144, 8192), (16384, 2048, 8192),
              (2048, 4096, 4096), (1024, 14336, 4096), (512, 4096, 14336)]
    for dtype in ["bf16", "fp16", "fp8", "tf32"] if "gemm" in sections else []:
        for m, n, k in [(s, s, s) for s in square] + shaped:
            fn = try_gemm_fn(dtype, m, n, k)
            if fn is None:
                continue
            flops = 2.0 * m * n * k
            seconds = time_launches(fn, reps_for(flops, 5e14))
            writer.writerow(["gemm", dtype, m, n, k, f"{flops:.6g}", f"{seconds:.6g}", f"{flops / seconds / 1e12:.2f}",
                             "TFLOP/s"])
            out.flush()
            del fn
            torch.cuda.empty_cache()

    for mib in [1, 16, 256, 2048] if "copy" in sections else []:
        elems = mib * 2**20 // 2
        src = torch.randn(elems, device="cuda", dtype=torch.bfloat16)
        dst = torch.empty_like(src)
        moved = 2.0 * src.numel() * 2  # read and write
        seconds = time_launches(lambda: dst.copy_(src), reps_for(moved, 3e12))
        writer.writerow(["copy", "bf16", elems, 1, 1, f"{moved:.6g}", f"{seconds:.6g}", f"{moved / seconds / 1e12:.3f}",
                         "TB/s"])
        del src, dst

    tiny = torch.zeros(1, device="cuda")
    if "launch" in sections:
        seconds = time_launches(lambda: tiny.add_(1.0), 2000)
        writer.writerow(["launch", "fp32", 1, 1, 1, "0", f"{seconds:.6g}", "", ""])
    if "graph" in sections:
        seconds = time_graph(lambda: tiny.add_(1.0), 1000)
        writer.writerow(["launch_graph", "fp32", 1, 1, 1, "0", f"{seconds:.6g}", "", ""])
        for dtype in ["bf16", "fp8"]:
            for m, n, k in [(s, s, s) for s in square[:6]] + shaped:
                fn = gemm_fn(dtype, m, n, k)
                flops = 2.0 * m * n * k
                seconds = time_graph(fn, max(3, min(200, int(0.01 * 5e14 / flops))))
                writer.writerow(["gemm_graph", dtype, m, n, k, f"{flops:.6g}", f"{seconds:.6g}",
                                 f"{flops / seconds / 1e12:.2f}", "TFLOP/s"])
                out.flush()
                del fn
                torch.cuda.empty_cache()
    if "overlap" in sections:
        measure_overlap(writer, out)
    if "sustained" in sections:
        measure_sustained(writer, out, args.seconds)
    if "layer" in sections:
        measure_layer(writer, out, [int(v) for v in args.layer.split(",")], args.seconds)
    if "wgrad" in sections:
        measure_wgrad(writer, out)


if __name__ == "__main__":
    main()
