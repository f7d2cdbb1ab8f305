//===- String.td - onnx string ops --------------------------*- tablegen -*-===//
//
// The ops of ONNX's string tensors (`!onnx.string` elements). Equal,
// LabelEncoder (through its expansion) and the data-movement ops take
// strings too; these are the ops that only strings have.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXC_DIALECTS_ONNX_IR_OPS_STRING_TD
#define ONNXC_DIALECTS_ONNX_IR_OPS_STRING_TD

def ONNX_StringConcatOp : ONNX_InferredOp<"StringConcat"> {
  let summary = "elementwise concatenation of two string tensors";
  let description = [{
    Models the ONNX `StringConcat` operator (opset 20): `Z = X + Y` for each
    pair of strings after numpy broadcasting, byte for byte (UTF-8 stays
    valid).

    ```mlir
    %z = onnx.StringConcat %x, %y : (tensor<3x!onnx.string>, tensor<1x!onnx.string>) -> tensor<3x!onnx.string>
    ```
  }];
  let arguments = (ins ONNX_StringTensor:$X, ONNX_StringTensor:$Y);
  let results = (outs ONNX_StringTensor:$Z);
}

def ONNX_StringSplitOp : ONNX_InferredOp<"StringSplit"> {
  let summary = "split each string at a delimiter";
  let description = [{
    Models the ONNX `StringSplit` operator (opset 20). Each string of `X` is
    split at every `delimiter` (consecutive delimiters give empty strings),
    or, when `delimiter` is absent or empty, at runs of whitespace (leading
    and trailing whitespace dropped), as Python's `str.split`. With
    `maxsplit`, at most that many splits are made from the left and the rest
    stays in the last part. `Y` holds the parts along a new last dim as long
    as the most parts of any string, padded with empty strings; `Z` the
    number of parts of each string.

    ```mlir
    %y, %z = onnx.StringSplit %x {delimiter = "."} : (tensor<2x!onnx.string>) -> (tensor<2x?x!onnx.string>, tensor<2xi64>)
    ```
  }];
  let arguments = (ins ONNX_StringTensor:$X, OptionalAttr<StrAttr>:$delimiter,
                       OptionalAttr<I64Attr>:$maxsplit);
  let results = (outs ONNX_StringTensor:$Y, ONNX_I64Tensor:$Z);
}

def ONNX_StringNormalizerOp : ONNX_InferredOp<"StringNormalizer"> {
  let summary = "drop stop words and change the case of a string tensor";
  let description = [{
    Models the ONNX `StringNormalizer` operator (opset 10). `X` is `[C]` or
    `[1, C]`. The strings equal to one of `stopwords` (ignoring ASCII case
    unless `is_case_sensitive` is 1) are dropped, and the others turned to
    upper or lower case as `case_change_action` says ("UPPER", "LOWER" or
    "NONE"; ASCII letters only, as ONNX Runtime's default locale; `locale` is
    read but not used). When every string is dropped, `Y` holds one empty
    string (`[1]` or `[1, 1]`).

    ```mlir
    %y = onnx.StringNormalizer %x {case_change_action = "UPPER", stopwords = ["monday"]} : (tensor<4x!onnx.string>) -> tensor<?x!onnx.string>
    ```
  }];
  let arguments = (ins ONNX_StringTensor:$X,
                       DefaultValuedAttr<StrAttr, "\"NONE\"">:$case_change_action,
                       DefaultValuedAttr<I64Attr, "0">:$is_case_sensitive,
                       OptionalAttr<StrAttr>:$locale,
                       OptionalAttr<StrArrayAttr>:$stopwords);
  let results = (outs ONNX_StringTensor:$Y);
}

def ONNX_RegexFullMatchOp : ONNX_InferredOp<"RegexFullMatch"> {
  let summary = "whether each string matches a regular expression";
  let description = [{
    Models the ONNX `RegexFullMatch` operator (opset 20): `Y` is true where
    the whole string of `X` matches `pattern`, a regular expression in RE2's
    syntax (checked when the op is built; the runtime matches with RE2,
    UTF-8 aware).

    ```mlir
    %y = onnx.RegexFullMatch %x {pattern = "www\\.[\\w.-]+\\.com"} : (tensor<3x!onnx.string>) -> tensor<3xi1>
    ```
  }];
  let arguments = (ins ONNX_StringTensor:$X, StrAttr:$pattern);
  let results = (outs ONNX_BoolTensor:$Y);
}

#endif // ONNXC_DIALECTS_ONNX_IR_OPS_STRING_TD
