#!/usr/bin/env bash
# Installs what building and testing sched needs on a fresh Debian 12 machine
# (DESIGN.md section 6): LLVM/Clang 19, CMake, GoogleTest, Python for lit.
# Safe to run again: apt-get skips what is installed.
set -euo pipefail
need=(clang-19 libclang-19-dev llvm-19-dev llvm-19-tools libclang-cpp19-dev cmake make libgtest-dev python3
      g++ pkg-config distcc)  # test/package: g++ (refused), a pkg-config Makefile, distcc through sched-clang++
missing=()
for p in "${need[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
fi
