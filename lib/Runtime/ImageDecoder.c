/*===- ImageDecoder.c - ImageDecoder through the image libraries ----------===*
 *
 * The runtime half of ImageDecoder: an encoded image (a uint8 value) becomes
 * an [H, W, C] uint8 tensor in the run arena, as ONNX's reference (Pillow)
 * decodes it. The format comes from the stream's first bytes: JPEG
 * (libjpeg-turbo, its default islow DCT and fancy upsampling), PNG
 * (libpng), TIFF (libtiff), WebP (libwebp), JPEG 2000 (OpenJPEG), BMP and
 * binary or text PNM (here). RGB and BGR have 3 channels: a grey image's
 * value repeated, an alpha channel dropped (Pillow's convert("RGB")).
 * Grayscale has 1: a grey image as it is, a colour one through Pillow's
 * convert("L") (ITU-R 601-2 luma in 16-bit fixed point). A stream that
 * does not decode gives an empty [0, 0, C] image, as the operator asks. In
 * an archive of its own (libonnxc_image.a) that the driver links, with the
 * libraries, only into the models that use it.
 *
 *===----------------------------------------------------------------------===*/

#include "lib/Runtime/RuntimeInternal.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// After <stdio.h>, whose FILE jpeglib.h uses.
#include <jpeglib.h>
#include <openjpeg.h>
#include <png.h>
#include <tiffio.h>
#include <webp/decode.h>

/// The pixel formats of the operator, as the lowering passes them.
enum { kRGB = 0, kBGR = 1, kGrayscale = 2 };

/// A decoded image: rows of `channels` (1 grey, 3 RGB) bytes per pixel,
/// malloc'ed.
typedef struct {
  int64_t height, width;
  int channels;
  unsigned char *pixels;
} Picture;

static bool allocPicture(Picture *p, int64_t height, int64_t width,
                         int channels) {
  if (height <= 0 || width <= 0 || height > (1 << 20) || width > (1 << 20))
    return false;
  p->height = height;
  p->width = width;
  p->channels = channels;
  p->pixels = malloc((size_t)(height * width * channels));
  return p->pixels != NULL;
}

static bool startsWith(const unsigned char *data, size_t size,
                       const char *magic, size_t n) {
  return size >= n && memcmp(data, magic, n) == 0;
}

/*===------------------------------------------------------------------------===
 * JPEG (libjpeg-turbo): errors come back through a longjmp, not exit().
 *===------------------------------------------------------------------------===*/

typedef struct {
  struct jpeg_error_mgr base;
  jmp_buf escape;
} JpegErrors;

static void jpegFail(j_common_ptr info) {
  longjmp(((JpegErrors *)info->err)->escape, 1);
}

static void jpegQuiet(j_common_ptr info, int level) { (void)info, (void)level; }

static bool decodeJpeg(const unsigned char *data, size_t size, Picture *p) {
  struct jpeg_decompress_struct info;
  JpegErrors errors;
  info.err = jpeg_std_error(&errors.base);
  errors.base.error_exit = jpegFail;
  errors.base.emit_message = jpegQuiet;
  /* volatile: read after the longjmp. */
  unsigned char *volatile pixels = NULL;
  if (setjmp(errors.escape)) {
    jpeg_destroy_decompress(&info);
    free(pixels);
    p->pixels = NULL;
    return false;
  }
  jpeg_create_decompress(&info);
  jpeg_mem_src(&info, data, (unsigned long)size);
  jpeg_read_header(&info, TRUE);
  bool grey = info.num_components == 1;
  info.out_color_space = grey ? JCS_GRAYSCALE : JCS_RGB;
  jpeg_start_decompress(&info);
  if (!allocPicture(p, info.output_height, info.output_width, grey ? 1 : 3)) {
    jpeg_destroy_decompress(&info);
    return false;
  }
  pixels = p->pixels;
  size_t stride = (size_t)p->width * (size_t)p->channels;
  while (info.output_scanline < info.output_height) {
    JSAMPROW row = pixels + info.output_scanline * stride;
    jpeg_read_scanlines(&info, &row, 1);
  }
  jpeg_finish_decompress(&info);
  jpeg_destroy_decompress(&info);
  return true;
}

/*===------------------------------------------------------------------------===
 * PNG (libpng's simplified API). Alpha is read and dropped here: asked for
 * RGB, libpng would compose it onto a background instead.
 *===------------------------------------------------------------------------===*/

static bool decodePng(const unsigned char *data, size_t size, Picture *p) {
  png_image image;
  memset(&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_memory(&image, data, size))
    return false;
  bool grey = !(image.format & PNG_FORMAT_FLAG_COLOR);
  bool alpha = image.format & PNG_FORMAT_FLAG_ALPHA;
  image.format = grey ? (alpha ? PNG_FORMAT_GA : PNG_FORMAT_GRAY)
                      : (alpha ? PNG_FORMAT_RGBA : PNG_FORMAT_RGB);
  int stored = (int)PNG_IMAGE_PIXEL_CHANNELS(image.format);
  Picture full;
  if (!allocPicture(&full, image.height, image.width, stored)) {
    png_image_free(&image);
    return false;
  }
  if (!png_image_finish_read(&image, NULL, full.pixels, 0, NULL)) {
    free(full.pixels);
    return false;
  }
  int kept = grey ? 1 : 3;
  if (!allocPicture(p, full.height, full.width, kept)) {
    free(full.pixels);
    return false;
  }
  for (int64_t i = 0; i < full.height * full.width; ++i)
    memcpy(p->pixels + i * kept, full.pixels + i * stored, (size_t)kept);
  free(full.pixels);
  return true;
}

/*===------------------------------------------------------------------------===
 * TIFF (libtiff, read from memory through client procedures).
 *===------------------------------------------------------------------------===*/

typedef struct {
  const unsigned char *data;
  toff_t size, at;
} TiffStream;

static tmsize_t tiffRead(thandle_t handle, void *buf, tmsize_t n) {
  TiffStream *s = handle;
  toff_t left = s->at < s->size ? s->size - s->at : 0;
  toff_t count = (toff_t)n < left ? (toff_t)n : left;
  memcpy(buf, s->data + s->at, (size_t)count);
  s->at += count;
  return (tmsize_t)count;
}

static tmsize_t tiffWrite(thandle_t handle, void *buf, tmsize_t n) {
  (void)handle, (void)buf, (void)n;
  return 0;
}

static toff_t tiffSeek(thandle_t handle, toff_t offset, int whence) {
  TiffStream *s = handle;
  toff_t base = whence == SEEK_CUR ? s->at : whence == SEEK_END ? s->size : 0;
  s->at = base + offset;
  return s->at;
}

static int tiffClose(thandle_t handle) {
  (void)handle;
  return 0;
}

static toff_t tiffSize(thandle_t handle) {
  return ((TiffStream *)handle)->size;
}

static int tiffMap(thandle_t handle, void **base, toff_t *size) {
  (void)handle, (void)base, (void)size;
  return 0;
}

static void tiffUnmap(thandle_t handle, void *base, toff_t size) {
  (void)handle, (void)base, (void)size;
}

static bool decodeTiff(const unsigned char *data, size_t size, Picture *p) {
  /* Silence libtiff: a stream that does not decode is an empty image. */
  TIFFSetErrorHandler(NULL);
  TIFFSetWarningHandler(NULL);
  TiffStream stream = {data, (toff_t)size, 0};
  TIFF *tiff =
      TIFFClientOpen("image", "rm", &stream, tiffRead, tiffWrite, tiffSeek,
                     tiffClose, tiffSize, tiffMap, tiffUnmap);
  if (!tiff)
    return false;
  uint32_t width = 0, height = 0;
  uint16_t samples = 1;
  TIFFGetField(tiff, TIFFTAG_IMAGEWIDTH, &width);
  TIFFGetField(tiff, TIFFTAG_IMAGELENGTH, &height);
  TIFFGetFieldDefaulted(tiff, TIFFTAG_SAMPLESPERPIXEL, &samples);
  bool grey = samples < 3;
  Picture rgba;
  if (!allocPicture(&rgba, height, width, 4)) {
    TIFFClose(tiff);
    return false;
  }
  bool ok =
      TIFFReadRGBAImageOriented(tiff, width, height, (uint32_t *)rgba.pixels,
                                ORIENTATION_TOPLEFT, 0) != 0;
  TIFFClose(tiff);
  if (ok && allocPicture(p, height, width, grey ? 1 : 3)) {
    /* The raster is ABGR words: R in the lowest byte. */
    const uint32_t *words = (const uint32_t *)rgba.pixels;
    for (int64_t i = 0; i < p->height * p->width; ++i) {
      uint32_t w = words[i];
      unsigned char *out = p->pixels + i * p->channels;
      out[0] = (unsigned char)TIFFGetR(w);
      if (!grey) {
        out[1] = (unsigned char)TIFFGetG(w);
        out[2] = (unsigned char)TIFFGetB(w);
      }
    }
  } else {
    ok = false;
  }
  free(rgba.pixels);
  return ok;
}

/*===------------------------------------------------------------------------===
 * WebP (libwebp).
 *===------------------------------------------------------------------------===*/

static bool decodeWebp(const unsigned char *data, size_t size, Picture *p) {
  int width = 0, height = 0;
  if (!WebPGetInfo(data, size, &width, &height) ||
      !allocPicture(p, height, width, 3))
    return false;
  size_t bytes = (size_t)(p->height * p->width * 3);
  if (!WebPDecodeRGBInto(data, size, p->pixels, bytes, width * 3)) {
    free(p->pixels);
    return false;
  }
  return true;
}

/*===------------------------------------------------------------------------===
 * JPEG 2000 (OpenJPEG, a JP2 file or a bare codestream, from memory).
 *===------------------------------------------------------------------------===*/

typedef struct {
  const unsigned char *data;
  OPJ_SIZE_T size, at;
} Jp2Stream;

static OPJ_SIZE_T jp2Read(void *buf, OPJ_SIZE_T n, void *user) {
  Jp2Stream *s = user;
  if (s->at >= s->size)
    return (OPJ_SIZE_T)-1;
  OPJ_SIZE_T count = n < s->size - s->at ? n : s->size - s->at;
  memcpy(buf, s->data + s->at, count);
  s->at += count;
  return count;
}

static OPJ_OFF_T jp2Skip(OPJ_OFF_T n, void *user) {
  Jp2Stream *s = user;
  if (n < 0)
    return -1;
  OPJ_OFF_T left = (OPJ_OFF_T)(s->size - s->at);
  OPJ_OFF_T count = n < left ? n : left;
  s->at += (OPJ_SIZE_T)count;
  return count;
}

static OPJ_BOOL jp2Seek(OPJ_OFF_T at, void *user) {
  Jp2Stream *s = user;
  if (at < 0 || (OPJ_SIZE_T)at > s->size)
    return OPJ_FALSE;
  s->at = (OPJ_SIZE_T)at;
  return OPJ_TRUE;
}

static void jp2Quiet(const char *message, void *user) {
  (void)message, (void)user;
}

static bool decodeJpeg2000(const unsigned char *data, size_t size,
                           OPJ_CODEC_FORMAT format, Picture *p) {
  Jp2Stream source = {data, size, 0};
  opj_stream_t *stream = opj_stream_create(1 << 16, OPJ_TRUE);
  if (!stream)
    return false;
  opj_stream_set_user_data(stream, &source, NULL);
  opj_stream_set_user_data_length(stream, size);
  opj_stream_set_read_function(stream, jp2Read);
  opj_stream_set_skip_function(stream, jp2Skip);
  opj_stream_set_seek_function(stream, jp2Seek);
  opj_codec_t *codec = opj_create_decompress(format);
  opj_set_error_handler(codec, jp2Quiet, NULL);
  opj_set_warning_handler(codec, jp2Quiet, NULL);
  opj_set_info_handler(codec, jp2Quiet, NULL);
  opj_dparameters_t parameters;
  opj_set_default_decoder_parameters(&parameters);
  opj_image_t *image = NULL;
  bool ok = opj_setup_decoder(codec, &parameters) &&
            opj_read_header(stream, codec, &image) &&
            opj_decode(codec, stream, image) &&
            opj_end_decompress(codec, stream);
  ok = ok && image && image->numcomps >= 1;
  bool grey = ok && image->numcomps < 3;
  int channels = grey ? 1 : 3;
  for (int c = 0; ok && c < channels; ++c) {
    const opj_image_comp_t *comp = &image->comps[c];
    ok = comp->dx == 1 && comp->dy == 1 && comp->prec >= 1 &&
         comp->prec <= 16 && comp->w == image->comps[0].w &&
         comp->h == image->comps[0].h;
  }
  ok = ok && allocPicture(p, image->comps[0].h, image->comps[0].w, channels);
  for (int c = 0; ok && c < channels; ++c) {
    const opj_image_comp_t *comp = &image->comps[c];
    /* To 8 bits, as Pillow reads deeper samples. */
    int shift = comp->prec > 8 ? (int)comp->prec - 8 : 0;
    int offset = comp->sgnd ? 1 << (comp->prec - 1) : 0;
    for (int64_t i = 0; i < p->height * p->width; ++i) {
      int v = (comp->data[i] + offset) >> shift;
      p->pixels[i * channels + c] = (unsigned char)(v < 0     ? 0
                                                    : v > 255 ? 255
                                                              : v);
    }
  }
  if (image)
    opj_image_destroy(image);
  opj_destroy_codec(codec);
  opj_stream_destroy(stream);
  return ok;
}

/*===------------------------------------------------------------------------===
 * BMP (uncompressed 24- and 32-bit, bottom-up or top-down) and PNM (P2, P3,
 * P5, P6 up to 8 bits), read here.
 *===------------------------------------------------------------------------===*/

static uint32_t le32(const unsigned char *b) {
  return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
         (uint32_t)b[3] << 24;
}

static bool decodeBmp(const unsigned char *data, size_t size, Picture *p) {
  if (size < 54)
    return false;
  uint32_t offset = le32(data + 10), header = le32(data + 14);
  int32_t width = (int32_t)le32(data + 18), height = (int32_t)le32(data + 22);
  unsigned bits = data[28] | data[29] << 8;
  uint32_t compression = le32(data + 30);
  /* BI_RGB, or BI_BITFIELDS with the usual masks of 32-bit BGRX. */
  bool plain = compression == 0 ||
               (compression == 3 && bits == 32 && header >= 52 && size >= 66 &&
                le32(data + 54) == 0xff0000 && le32(data + 58) == 0xff00 &&
                le32(data + 62) == 0xff);
  if (header < 40 || (bits != 24 && bits != 32) || !plain || width <= 0 ||
      height == 0 || height == INT32_MIN)
    return false;
  bool bottomUp = height > 0;
  int64_t rows = bottomUp ? height : -(int64_t)height;
  size_t pixelBytes = bits / 8;
  size_t stride = ((size_t)width * pixelBytes + 3) & ~(size_t)3;
  if (offset > size || (size - offset) / stride < (size_t)rows ||
      !allocPicture(p, rows, width, 3))
    return false;
  for (int64_t y = 0; y < rows; ++y) {
    const unsigned char *row =
        data + offset + (size_t)(bottomUp ? rows - 1 - y : y) * stride;
    unsigned char *out = p->pixels + y * width * 3;
    for (int32_t x = 0; x < width; ++x) {
      out[3 * x] = row[x * pixelBytes + 2];
      out[3 * x + 1] = row[x * pixelBytes + 1];
      out[3 * x + 2] = row[x * pixelBytes];
    }
  }
  return true;
}

/// The next whitespace-separated decimal of a PNM header (comments skipped);
/// -1 if there is none.
static int64_t pnmNumber(const unsigned char *data, size_t size, size_t *at) {
  while (*at < size) {
    unsigned char c = data[*at];
    if (c == '#') {
      while (*at < size && data[*at] != '\n')
        ++*at;
    } else if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
      ++*at;
    } else {
      break;
    }
  }
  int64_t value = -1;
  while (*at < size && data[*at] >= '0' && data[*at] <= '9' &&
         value < (1 << 24)) {
    value = (value < 0 ? 0 : value * 10) + (data[*at] - '0');
    ++*at;
  }
  return value;
}

static bool decodePnm(const unsigned char *data, size_t size, Picture *p) {
  char kind = (char)data[1];
  bool binary = kind == '5' || kind == '6', grey = kind == '2' || kind == '5';
  size_t at = 2;
  int64_t width = pnmNumber(data, size, &at);
  int64_t height = pnmNumber(data, size, &at);
  int64_t maxval = pnmNumber(data, size, &at);
  if (maxval < 1 || maxval > 255 ||
      !allocPicture(p, height, width, grey ? 1 : 3))
    return false;
  int64_t count = height * width * p->channels;
  /* One whitespace byte ends a binary header. */
  ++at;
  if (binary && (at > size || size - at < (size_t)count)) {
    free(p->pixels);
    return false;
  }
  for (int64_t i = 0; i < count; ++i) {
    int64_t v = binary ? data[at + i] : pnmNumber(data, size, &at);
    if (v < 0 || v > maxval) {
      free(p->pixels);
      return false;
    }
    /* Scaled to 255 as Pillow does for a maxval below 255. */
    p->pixels[i] =
        (unsigned char)(maxval == 255 ? v : (v * 255 + maxval / 2) / maxval);
  }
  return true;
}

/*===------------------------------------------------------------------------===
 * The operator.
 *===------------------------------------------------------------------------===*/

static bool decode(const unsigned char *data, size_t size, Picture *p) {
  if (startsWith(data, size, "\xff\xd8\xff", 3))
    return decodeJpeg(data, size, p);
  if (startsWith(data, size, "\x89PNG\r\n\x1a\n", 8))
    return decodePng(data, size, p);
  if (startsWith(data, size, "II*\0", 4) || startsWith(data, size, "MM\0*", 4))
    return decodeTiff(data, size, p);
  if (size >= 12 && memcmp(data, "RIFF", 4) == 0 &&
      memcmp(data + 8, "WEBP", 4) == 0)
    return decodeWebp(data, size, p);
  if (startsWith(data, size, "\0\0\0\x0cjP  \r\n\x87\n", 12))
    return decodeJpeg2000(data, size, OPJ_CODEC_JP2, p);
  if (startsWith(data, size, "\xff\x4f\xff\x51", 4))
    return decodeJpeg2000(data, size, OPJ_CODEC_J2K, p);
  if (startsWith(data, size, "BM", 2))
    return decodeBmp(data, size, p);
  if (size >= 2 && data[0] == 'P' && data[1] >= '2' && data[1] <= '6' &&
      data[1] != '4')
    return decodePnm(data, size, p);
  return false;
}

int64_t onnxc_image_decode(int64_t encoded, int64_t format) {
  const char *op = "ImageDecoder";
  const onnxc_tensor *in = (const onnxc_tensor *)(intptr_t)encoded;
  int channels = format == kGrayscale ? 1 : 3;
  Picture picture = {0, 0, 0, NULL};
  bool ok = in && in->kind == ONNXC_KIND_TENSOR &&
            in->dtype == ONNXC_DTYPE_UINT8 &&
            decode(in->data, (size_t)in->numel, &picture);
  int64_t dims[3] = {ok ? picture.height : 0, ok ? picture.width : 0, channels};
  onnxc_tensor *out = onnxcArenaTensor(ONNXC_DTYPE_UINT8, 3, dims, op);
  if (!ok)
    return (int64_t)(intptr_t)out;
  unsigned char *dst = out->data;
  const unsigned char *src = picture.pixels;
  for (int64_t i = 0; i < picture.height * picture.width; ++i) {
    const unsigned char *px = src + i * picture.channels;
    unsigned char *o = dst + i * channels;
    if (channels == 1) {
      /* Pillow's convert("L"): (299 R + 587 G + 114 B) / 1000, in 16-bit
         fixed point, rounded. */
      o[0] = picture.channels == 1
                 ? px[0]
                 : (unsigned char)((px[0] * 19595 + px[1] * 38470 +
                                    px[2] * 7471 + 0x8000) >>
                                   16);
    } else {
      unsigned char r = px[0];
      unsigned char g = picture.channels == 1 ? px[0] : px[1];
      unsigned char b = picture.channels == 1 ? px[0] : px[2];
      o[0] = format == kBGR ? b : r;
      o[1] = g;
      o[2] = format == kBGR ? r : b;
    }
  }
  free(picture.pixels);
  return (int64_t)(intptr_t)out;
}
