//===- Misc.td - onnx selection, signal, random and misc ops -*- tablegen -*-===//
//
// Ops whose result size depends on the data (NonZero, Compress,
// NonMaxSuppression, Unique), window functions and Fourier transforms, the
// random generators, a few neural-network helpers (LRN, Det,
// ReverseSequence) and TfIdfVectorizer.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXC_DIALECTS_ONNX_IR_OPS_MISC_TD
#define ONNXC_DIALECTS_ONNX_IR_OPS_MISC_TD

//===----------------------------------------------------------------------===//
// Data-dependent result sizes
//===----------------------------------------------------------------------===//

def ONNX_NonZeroOp : ONNX_InferredOp<"NonZero"> {
  let summary = "the indices of the non-zero elements";
  let description = [{
    Models the ONNX `NonZero` operator (opsets 9 to 13): a `[rank(X), n]`
    int64 tensor whose column `j` holds the coordinates of the `j`-th
    non-zero element of `X` in row-major order. `n` is known only at run
    time.

    ```mlir
    %y = onnx.NonZero %x : (tensor<2x2xi1>) -> tensor<2x?xi64>
    ```
  }];
  let arguments = (ins ONNX_Tensor:$X);
  let results = (outs ONNX_I64Tensor:$Y);
}

def ONNX_CompressOp : ONNX_InferredOp<"Compress"> {
  let summary = "the slices along an axis where a condition is true";
  let description = [{
    Models the ONNX `Compress` operator (opsets 9 to 11): the slices of
    `input` along `axis` whose index has a true element in the 1-D
    `condition` (a shorter `condition` leaves the remaining slices out).
    Without `axis` the input is flattened first.

    ```mlir
    %y = onnx.Compress %x, %c {axis = 0 : i64} : (tensor<3x2xf32>, tensor<3xi1>) -> tensor<?x2xf32>
    ```
  }];
  let arguments = (ins ONNX_Tensor:$input, ONNX_BoolTensor:$condition,
                       OptionalAttr<I64Attr>:$axis);
  let results = (outs ONNX_Tensor:$output);
}

def ONNX_NonMaxSuppressionOp : ONNX_InferredOp<"NonMaxSuppression"> {
  let summary = "greedy selection of boxes by score and overlap";
  let description = [{
    Models the ONNX `NonMaxSuppression` operator (opsets 10 to 11). For each
    batch and class, boxes are taken in order of decreasing score (equal
    scores by index) while their score exceeds `score_threshold`, skipping a
    box whose intersection over union with a taken box exceeds
    `iou_threshold`, up to `max_output_boxes_per_class` boxes (0, or absent,
    takes none). `boxes` is `[batch, boxes, 4]` as corners `[y1, x1, y2, x2]`
    (`center_point_box` = 0, in either order) or `[x, y, w, h]` (1);
    `scores` is `[batch, classes, boxes]`. The result lists the selected
    `[batch, class, box]` triples.

    ```mlir
    %y = onnx.NonMaxSuppression %b, %s, %m, %iou, %st : (tensor<1x6x4xf32>, tensor<1x1x6xf32>, tensor<1xi64>, tensor<1xf32>, tensor<1xf32>) -> tensor<?x3xi64>
    ```
  }];
  let arguments = (ins ONNX_FloatTensor:$boxes, ONNX_FloatTensor:$scores,
                       ONNX_OptTensor:$max_output_boxes_per_class,
                       ONNX_OptTensor:$iou_threshold,
                       ONNX_OptTensor:$score_threshold,
                       DefaultValuedAttr<I64Attr, "0">:$center_point_box);
  let results = (outs ONNX_I64Tensor:$selected_indices);
}

def ONNX_UniqueOp : ONNX_InferredOp<"Unique"> {
  let summary = "the unique elements or slices of a tensor";
  let description = [{
    Models the ONNX `Unique` operator (opset 11): `Y` holds the unique
    elements of the flattened `X` or, with `axis`, its unique slices along
    `axis`, in ascending (lexicographic) order when `sorted` is 1 and in
    order of first occurrence when 0. `indices` gives the first occurrence
    of each in `X`, `inverse_indices` the position in `Y` of each element
    (slice) of `X`, and `counts` how often each occurs. The number of unique
    values is known only at run time.

    ```mlir
    %y, %i, %inv, %c = onnx.Unique %x : (tensor<6xf32>) -> (tensor<?xf32>, tensor<?xi64>, tensor<6xi64>, tensor<?xi64>)
    ```
  }];
  let arguments = (ins ONNX_NumericTensor:$X, OptionalAttr<I64Attr>:$axis,
                       DefaultValuedAttr<I64Attr, "1">:$sorted);
  let results = (outs ONNX_NumericTensor:$Y, ONNX_I64Tensor:$indices,
                      ONNX_I64Tensor:$inverse_indices, ONNX_I64Tensor:$counts);
}

//===----------------------------------------------------------------------===//
// Window functions and Fourier transforms
//===----------------------------------------------------------------------===//

/// A window function of opset 17 over a scalar size.
class ONNX_WindowOp<string mnemonic, string formula>
    : ONNX_InferredOp<mnemonic> {
  let summary = "the " # mnemonic # " window function";
  let description = [{
    Models the ONNX `}] # mnemonic # [{` operator (opset 17): a 1-D tensor
    of `size` (a scalar int32 or int64) elements }] # formula # [{, where
    `N = size` when `periodic` is 1 and `size - 1` when it is 0.
    `output_datatype` is the ONNX data type code of the result (float by
    default).

    ```mlir
    %w = onnx.}] # mnemonic # [{ %n : (tensor<i32>) -> tensor<?xf32>
    ```
  }];
  let arguments = (ins ONNX_IndexTensor:$size,
                       DefaultValuedAttr<I64Attr, "1">:$output_datatype,
                       DefaultValuedAttr<I64Attr, "1">:$periodic);
  let results = (outs ONNX_NumericTensor:$output);
}

def ONNX_HannWindowOp : ONNX_WindowOp<"HannWindow",
    "`0.5 - 0.5 cos(2 pi n / N)`">;
def ONNX_HammingWindowOp : ONNX_WindowOp<"HammingWindow",
    "`25/46 - 21/46 cos(2 pi n / N)`">;
def ONNX_BlackmanWindowOp : ONNX_WindowOp<"BlackmanWindow",
    "`0.42 - 0.5 cos(2 pi n / N) + 0.08 cos(4 pi n / N)`">;

def ONNX_DFTOp : ONNX_InferredOp<"DFT"> {
  let summary = "discrete Fourier transform along an axis";
  let description = [{
    Models the ONNX `DFT` operator (opset 17; opset 20 passes `axis` as an
    input, which the importer takes when it is a constant, and otherwise
    imports as one DFT per possible axis chosen by `onnx.If`s): `input` is
    `[batch, ..., 1]` (real) or `[batch, ..., 2]` (complex) and the output `[batch, ..., 2]` holds the transform along
    `axis` of length `dft_length` (a scalar input; the signal is cut or
    zero-padded to it) or of the signal's length. `inverse` computes the
    inverse transform (scaled by 1 / length); `onesided` keeps the first
    `length / 2 + 1` frequencies of a real signal. `inverse` with `onesided`
    is the inverse of that: the input holds the first half of a Hermitian
    spectrum, and the real output `[batch, ..., 1]` has `dft_length`, or
    `2 * (frequencies - 1)`, samples along `axis`.

    ```mlir
    %y = onnx.DFT %x, %none {axis = 1 : i64} : (tensor<1x10x1xf32>, none) -> tensor<1x10x2xf32>
    ```
  }];
  let arguments = (ins ONNX_FloatTensor:$input, ONNX_OptTensor:$dft_length,
                       DefaultValuedAttr<I64Attr, "1">:$axis,
                       DefaultValuedAttr<I64Attr, "0">:$inverse,
                       DefaultValuedAttr<I64Attr, "0">:$onesided);
  let results = (outs ONNX_FloatTensor:$output);
}

def ONNX_STFTOp : ONNX_InferredOp<"STFT"> {
  let summary = "short-time Fourier transform";
  let description = [{
    Models the ONNX `STFT` operator (opset 17): `signal` `[batch, length, 1]`
    (real) or `[batch, length, 2]` (complex) is cut into frames of
    `frame_length` (a scalar input, else the length of `window`) starting
    every `frame_step` (a scalar input) elements; each frame, multiplied by
    `window` when given, is transformed as by `DFT`. The output is
    `[batch, frames, bins, 2]`, `bins` being `frame_length / 2 + 1` when
    `onesided` is 1 (the default) and `frame_length` when 0.

    ```mlir
    %y = onnx.STFT %x, %step, %w, %none : (tensor<1x128x1xf32>, tensor<i64>, tensor<16xf32>, none) -> tensor<1x?x9x2xf32>
    ```
  }];
  let arguments = (ins ONNX_FloatTensor:$signal, ONNX_IndexTensor:$frame_step,
                       ONNX_OptTensor:$window, ONNX_OptTensor:$frame_length,
                       DefaultValuedAttr<I64Attr, "1">:$onesided);
  let results = (outs ONNX_FloatTensor:$output);
}

//===----------------------------------------------------------------------===//
// Random generators
//===----------------------------------------------------------------------===//

// The generators are counter based: element `i` is a hash of the seed and
// `i`, so a seeded op gives the same values on every run. Without `seed` the
// lowering derives one from the op's location.

def ONNX_RandomUniformOp : ONNX_InferredOp<"RandomUniform"> {
  let summary = "a tensor of uniformly distributed random values";
  let description = [{
    Models the ONNX `RandomUniform` operator (opsets 1 to 21): a tensor of
    `shape` and element type `dtype` (an ONNX data type code, float by
    default) drawn from `[low, high)`.

    ```mlir
    %y = onnx.RandomUniform {shape = array<i64: 2, 3>, seed = 1.0 : f32} : () -> tensor<2x3xf32>
    ```
  }];
  let arguments = (ins DefaultValuedAttr<I64Attr, "1">:$dtype,
                       DefaultValuedAttr<F32Attr, "1.0">:$high,
                       DefaultValuedAttr<F32Attr, "0.0">:$low,
                       OptionalAttr<F32Attr>:$seed,
                       DenseI64ArrayAttr:$shape);
  let results = (outs ONNX_FloatTensor:$output);
}

def ONNX_RandomNormalOp : ONNX_InferredOp<"RandomNormal"> {
  let summary = "a tensor of normally distributed random values";
  let description = [{
    Models the ONNX `RandomNormal` operator (opsets 1 to 21): a tensor of
    `shape` and element type `dtype` (float by default) drawn from the
    normal distribution of `mean` and standard deviation `scale`.

    ```mlir
    %y = onnx.RandomNormal {shape = array<i64: 4>} : () -> tensor<4xf32>
    ```
  }];
  let arguments = (ins DefaultValuedAttr<I64Attr, "1">:$dtype,
                       DefaultValuedAttr<F32Attr, "0.0">:$mean,
                       DefaultValuedAttr<F32Attr, "1.0">:$scale,
                       OptionalAttr<F32Attr>:$seed,
                       DenseI64ArrayAttr:$shape);
  let results = (outs ONNX_FloatTensor:$output);
}

def ONNX_RandomUniformLikeOp : ONNX_InferredOp<"RandomUniformLike"> {
  let summary = "uniform random values in the shape of a tensor";
  let description = [{
    Models the ONNX `RandomUniformLike` operator (opsets 1 to 21): as
    `RandomUniform` with the shape of `input` and, without `dtype`, its
    element type.

    ```mlir
    %y = onnx.RandomUniformLike %x : (tensor<?x3xf32>) -> tensor<?x3xf32>
    ```
  }];
  let arguments = (ins ONNX_Tensor:$input, OptionalAttr<I64Attr>:$dtype,
                       DefaultValuedAttr<F32Attr, "1.0">:$high,
                       DefaultValuedAttr<F32Attr, "0.0">:$low,
                       OptionalAttr<F32Attr>:$seed);
  let results = (outs ONNX_FloatTensor:$output);
}

def ONNX_RandomNormalLikeOp : ONNX_InferredOp<"RandomNormalLike"> {
  let summary = "normal random values in the shape of a tensor";
  let description = [{
    Models the ONNX `RandomNormalLike` operator (opsets 1 to 21): as
    `RandomNormal` with the shape of `input` and, without `dtype`, its
    element type.

    ```mlir
    %y = onnx.RandomNormalLike %x {mean = 1.0 : f32} : (tensor<4xf64>) -> tensor<4xf64>
    ```
  }];
  let arguments = (ins ONNX_Tensor:$input, OptionalAttr<I64Attr>:$dtype,
                       DefaultValuedAttr<F32Attr, "0.0">:$mean,
                       DefaultValuedAttr<F32Attr, "1.0">:$scale,
                       OptionalAttr<F32Attr>:$seed);
  let results = (outs ONNX_FloatTensor:$output);
}

def ONNX_BernoulliOp : ONNX_InferredOp<"Bernoulli"> {
  let summary = "random draws of 0 or 1 with given probabilities";
  let description = [{
    Models the ONNX `Bernoulli` operator (opset 15): each element is 1 with
    the probability that the matching element of `input` gives, else 0, of
    element type `dtype` (`input`'s when absent).

    ```mlir
    %y = onnx.Bernoulli %p {seed = 0.0 : f32} : (tensor<10xf32>) -> tensor<10xf32>
    ```
  }];
  let arguments = (ins ONNX_FloatTensor:$input, OptionalAttr<I64Attr>:$dtype,
                       OptionalAttr<F32Attr>:$seed);
  let results = (outs ONNX_Tensor:$output);
}

//===----------------------------------------------------------------------===//
// Neural-network and linear-algebra helpers
//===----------------------------------------------------------------------===//

def ONNX_LRNOp : ONNX_InferredOp<"LRN"> {
  let summary = "local response normalization across channels";
  let description = [{
    Models the ONNX `LRN` operator (opsets 1 to 13): for input `[N, C, ...]`,
    `Y = X / (bias + alpha / size * sum(X[c']^2))^beta`, the sum over the
    channels `c'` in `[c - floor((size - 1) / 2), c + ceil((size - 1) / 2)]`.

    ```mlir
    %y = onnx.LRN %x {size = 3 : i64} : (tensor<1x5x4x4xf32>) -> tensor<1x5x4x4xf32>
    ```
  }];
  let arguments = (ins ONNX_FloatTensor:$X,
                       DefaultValuedAttr<F32Attr, "0.0001">:$alpha,
                       DefaultValuedAttr<F32Attr, "0.75">:$beta,
                       DefaultValuedAttr<F32Attr, "1.0">:$bias,
                       I64Attr:$size);
  let results = (outs ONNX_FloatTensor:$Y);
}

def ONNX_DetOp : ONNX_InferredOp<"Det"> {
  let summary = "the determinants of square matrices";
  let description = [{
    Models the ONNX `Det` operator (opsets 11 to 22): the determinant of each
    square matrix in the last two dims of `X` (by LU decomposition with
    partial pivoting); the result has the leading dims.

    ```mlir
    %d = onnx.Det %x : (tensor<2x3x3xf32>) -> tensor<2xf32>
    ```
  }];
  let arguments = (ins ONNX_FloatTensor:$X);
  let results = (outs ONNX_FloatTensor:$Y);
}

def ONNX_ReverseSequenceOp : ONNX_InferredOp<"ReverseSequence"> {
  let summary = "reverse the first elements of each sequence of a batch";
  let description = [{
    Models the ONNX `ReverseSequence` operator (opset 10): for each batch
    index `b` (along `batch_axis`), the first `sequence_lens[b]` elements
    along `time_axis` are reversed and the rest copied. `batch_axis` and
    `time_axis` are 0 and 1 in either order.

    ```mlir
    %y = onnx.ReverseSequence %x, %l {batch_axis = 1 : i64, time_axis = 0 : i64} : (tensor<4x4xf32>, tensor<4xi64>) -> tensor<4x4xf32>
    ```
  }];
  let arguments = (ins ONNX_Tensor:$input, ONNX_I64Tensor:$sequence_lens,
                       DefaultValuedAttr<I64Attr, "1">:$batch_axis,
                       DefaultValuedAttr<I64Attr, "0">:$time_axis);
  let results = (outs ONNX_Tensor:$Y);
}

//===----------------------------------------------------------------------===//
// Text
//===----------------------------------------------------------------------===//

def ONNX_TfIdfVectorizerOp : ONNX_InferredOp<"TfIdfVectorizer"> {
  let summary = "n-gram counts of integer sequences";
  let description = [{
    Models the ONNX `TfIdfVectorizer` operator (opset 9) for integer input
    (the `pool_strings` form is not supported): each row of `X` (`[C]` or
    `[N, C]`) is scanned for the n-grams of `pool_int64s`, of lengths
    `min_gram_length` to `max_gram_length`, whose items may be
    `max_skip_count` elements apart (evenly). `pool_int64s` holds the
    1-grams, then the 2-grams, ...; `ngram_counts[i]` is where the
    (i+1)-grams start, and `ngram_indexes[j]` the output position of the
    j-th n-gram. The output counts each n-gram (`TF`), or gives its weight
    where it occurs (`IDF`), or its count times its weight (`TFIDF`);
    `weights` default to 1.

    ```mlir
    %y = onnx.TfIdfVectorizer %x {max_gram_length = 2 : i64, max_skip_count = 0 : i64, min_gram_length = 2 : i64, mode = "TF", ngram_counts = array<i64: 0, 0>, ngram_indexes = array<i64: 0, 1>, pool_int64s = array<i64: 5, 6, 7, 8>} : (tensor<12xi32>) -> tensor<2xf32>
    ```
  }];
  let arguments = (ins TensorOf<[I32, I64]>:$X, I64Attr:$max_gram_length,
                       I64Attr:$max_skip_count, I64Attr:$min_gram_length,
                       StrAttr:$mode, DenseI64ArrayAttr:$ngram_counts,
                       DenseI64ArrayAttr:$ngram_indexes,
                       OptionalAttr<DenseI64ArrayAttr>:$pool_int64s,
                       OptionalAttr<DenseF32ArrayAttr>:$weights);
  let results = (outs TensorOf<[F32]>:$Y);
}

def ONNX_ImageDecoderOp : ONNX_InferredOp<"ImageDecoder"> {
  let summary = "decode an encoded image";
  let description = [{
    Models the ONNX `ImageDecoder` operator (opset 20): `encoded_stream`
    holds the bytes of a BMP, JPEG, JPEG 2000, TIFF, PNG, WebP or PNM
    image (told apart by their first bytes), and `image` its pixels as
    `[H, W, 3]` (`pixel_format` "RGB" or "BGR") or `[H, W, 1]`
    ("Grayscale"), as ONNX's reference decodes them with Pillow: JPEG with
    libjpeg-turbo's fancy upsampling, a colour image to grey by ITU-R
    601-2 luma, a grey one repeated to RGB, alpha dropped. A stream that
    does not decode gives `[0, 0, C]`. The runtime decodes
    (`libonnxc_image.a`, linked only into the models that use it).

    ```mlir
    %y = onnx.ImageDecoder %x {pixel_format = "BGR"} : (tensor<1058xui8>) -> tensor<?x?x3xui8>
    ```
  }];
  let arguments = (ins TensorOf<[UI8]>:$encoded_stream,
                       DefaultValuedAttr<StrAttr, "\"RGB\"">:$pixel_format);
  let results = (outs TensorOf<[UI8]>:$image);
}

#endif // ONNXC_DIALECTS_ONNX_IR_OPS_MISC_TD
