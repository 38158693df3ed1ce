#!/bin/sh
# A stand-in for ptxas: records its arguments and the kernel of its PTX input
# in $FAKE_PTXAS_LOG, then prints what `ptxas -v` prints for a kernel that
# spills, so the report's reading of each field can be checked exactly.
for a in "$@"; do case "$a" in *.ptx) ptx="$a";; esac; done
echo "args: $*" >> "$FAKE_PTXAS_LOG"
grep -o '\.entry [A-Za-z0-9_]*' "$ptx" >> "$FAKE_PTXAS_LOG"
arch=$(echo "$*" | sed 's/.*-arch=\([a-z0-9_]*\).*/\1/')
cat <<OUT >&2
ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function 'fake_kernel' for '$arch'
ptxas info    : Function properties for fake_kernel
    48 bytes stack frame, 40 bytes spill stores, 36 bytes spill loads
ptxas info    : Used 255 registers, used 1 barriers, 2048 bytes smem, 380 bytes cmem[0]
ptxas info    : Compile time = 1.000 ms
OUT
