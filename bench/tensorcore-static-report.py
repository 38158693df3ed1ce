#!/usr/bin/env python3
"""The static report (bench/codegen_report.py) of the tensor-core example and
the plain matmul, for sm_80 unless told otherwise.

Usage:
  python3 bench/tensorcore-static-report.py [--arch=sm_80] [--build=DIR] [SOURCE ...]
  python3 bench/tensorcore-static-report.py --ptx FILE.ptx ...   (the PTX analysis only)

Without SOURCE: examples/wmma_gemm.cpp and examples/matmul.cpp. Columns,
the hot loop and the skip without nvcc: see bench/codegen_report.py.
"""
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import codegen_report  # noqa: E402

if __name__ == "__main__":
    examples = os.path.join(codegen_report.ROOT, "examples")
    sys.exit(codegen_report.main(
        sys.argv[1:], default=[os.path.join(examples, "wmma_gemm.cpp"),
                               os.path.join(examples, "matmul.cpp")],
        default_archs=["sm_80"]))
