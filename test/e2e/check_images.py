"""check_images.py - the model, inputs and expected outputs of test/e2e/images.test.

  check_images.py write DIR     writes DIR/decode.onnx (three ImageDecoder
                                nodes on one stream: RGB, BGR, Grayscale)
                                and DIR/FORMAT.pb: one image (gradients and
                                noise, 45x37, odd sizes for the chroma
                                subsampling) encoded by Pillow as JPEG,
                                PNG, BMP, TIFF, WebP, JPEG 2000 and PPM, a
                                grey PNG and JPEG, an RGBA PNG, and bytes
                                that are no image
  check_images.py check DIR OUT FORMAT
                                checks OUT's three outputs against ONNX's
                                reference semantics on Pillow's decode of
                                the same bytes (np.array(img) for RGB, its
                                channels reversed for BGR, convert("L") for
                                Grayscale; [0, 0, C] for no image)
"""
import io
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from PIL import Image

from check_strings import read

FORMATS = {"jpeg": ("JPEG", "RGB", {"quality": 85}), "png": ("PNG", "RGB", {}), "bmp": ("BMP", "RGB", {}),
           "tiff": ("TIFF", "RGB", {}), "webp": ("WEBP", "RGB", {"quality": 80}),
           "jpeg2000": ("JPEG2000", "RGB", {"quality_mode": "rates", "quality_layers": [20]}),
           "ppm": ("PPM", "RGB", {}), "grey_png": ("PNG", "L", {}), "grey_jpeg": ("JPEG", "L", {}),
           "rgba_png": ("PNG", "RGBA", {})}
# Streams that are no image: bytes of no format, and a BMP header cut short
# before the colour masks that its BI_BITFIELDS compression announces.
BROKEN = {"garbage": b"not an image at all",
          "short_bmp": b"BM" + b"\0" * 12 + (52).to_bytes(4, "little") + b"\1\0\0\0" * 2
          + b"\1\0\x20\0" + (3).to_bytes(4, "little") + b"\0" * 20}
FORMATS_ALL = list(FORMATS) + list(BROKEN)


def picture(mode):
    h, w = 45, 37
    y, x = np.mgrid[0:h, 0:w]
    rng = np.random.default_rng(7)
    rgb = np.stack([x * 255 // (w - 1), y * 255 // (h - 1), (x * y) % 256], axis=-1)
    rgb = np.clip(rgb + rng.integers(-20, 21, rgb.shape), 0, 255).astype(np.uint8)
    img = Image.fromarray(rgb, "RGB")
    if mode == "L":
        return img.convert("L")
    if mode == "RGBA":
        a = Image.fromarray(((x + y) * 3 % 256).astype(np.uint8), "L")
        img.putalpha(a)
    return img


def encoded(name):
    if name in BROKEN:
        return BROKEN[name]
    fmt, mode, options = FORMATS[name]
    out = io.BytesIO()
    picture(mode).save(out, format=fmt, **options)
    return out.getvalue()


def write(out):
    nodes = [helper.make_node("ImageDecoder", ["stream"], [f"image_{f}"], pixel_format=f)
             for f in ("RGB", "BGR", "Grayscale")]
    graph = helper.make_graph(
        nodes, "decode", [helper.make_tensor_value_info("stream", TensorProto.UINT8, ["bytes"])],
        [helper.make_tensor_value_info(f"image_{f}", TensorProto.UINT8, ["h", "w", c])
         for f, c in (("RGB", 3), ("BGR", 3), ("Grayscale", 1))])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 20)])
    model.ir_version = 9
    onnx.save(model, f"{out}/decode.onnx")
    for name in FORMATS_ALL:
        data = np.frombuffer(encoded(name), dtype=np.uint8)
        with open(f"{out}/{name}.pb", "wb") as f:
            f.write(numpy_helper.from_array(data, "stream").SerializeToString())


def expected(name):
    if name in BROKEN:
        return [np.zeros((0, 0, 3), np.uint8), np.zeros((0, 0, 3), np.uint8), np.zeros((0, 0, 1), np.uint8)]
    img = Image.open(io.BytesIO(encoded(name)))
    rgb = np.array(img.convert("RGB"))
    grey = np.array(img.convert("L"))[:, :, None]
    return [rgb, rgb[:, :, ::-1], grey]


def check(out, results, name):
    for k, (fmt, want) in enumerate(zip(("RGB", "BGR", "Grayscale"), expected(name))):
        got = read(f"{results}/output_{k}.pb")
        if got.shape != want.shape or not np.array_equal(got, want):
            diff = np.abs(got.astype(int) - want.astype(int)).max() if got.shape == want.shape else "shape"
            print(f"FAIL: {name} {fmt}: got {got.shape}, expected {want.shape}, max difference {diff}")
            return 1
    print(f"images: {name} decodes as Pillow does in RGB, BGR and Grayscale ({want.shape[0]}x{want.shape[1]})")
    return 0


if __name__ == "__main__":
    if sys.argv[1] == "write":
        write(sys.argv[2])
    else:
        sys.exit(check(sys.argv[2], sys.argv[3], sys.argv[4]))
