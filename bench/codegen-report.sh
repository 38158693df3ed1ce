#!/usr/bin/env bash
# The static codegen report: for every example with a GPU nest and every
# hand-written reference kernel in bench/reference/, registers, spills and
# what the hot loop of the PTX spends per FMA/MMA, one table per
# architecture (sm_80 and sm_90 unless --arch names one), each reference on
# the rows after the example it mirrors. Needs nvcc and a built plugin (the
# examples), no GPU; without nvcc it says so and exits 0. The analysis is
# bench/codegen_report.py (its docstring defines the columns and the hot
# loop); bench/README.md shows a table.
#
#   bash bench/codegen-report.sh [--arch=sm_80|sm_90] [--build DIR] [SOURCE ...]
exec python3 "$(dirname "$0")/codegen_report.py" "$@"
