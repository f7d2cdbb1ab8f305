/*===- FakeModels.h - Hand-written models on the onnxc model ABI -----------===*
 *
 * Stand-ins for what onnx-compile emits, written in C against the memref
 * descriptor ABI, for the runtime's unit and aarch64 smoke tests.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ONNXC_TEST_RUNTIME_FAKEMODELS_H
#define ONNXC_TEST_RUNTIME_FAKEMODELS_H

#include "onnxc_runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

/// sum = a + b; a, b and sum are float32 [N,3].
extern const onnxc_model_desc fakeAddModel;
/// The pool that fakeAddModel's last run saw as the current one.
extern onnxc_threadpool *fakeAddLastPool;

/// x is float32 [2,3]. Outputs: xt (float32 [3,2], the transpose, returned
/// as a strided view at offset 1) and x2 (float32 [2,3], 2 * x, dense but
/// with aligned != allocated and a nonzero offset).
extern const onnxc_model_desc fakeStridedModel;

/// x is int64 [?]. Outputs: same (x's own buffer), and twice and twice2
/// (2 * x, both in one malloc'd buffer).
extern const onnxc_model_desc fakeAliasModel;

/// m is float32 [N,N] (one dim_param twice), diag float32 [N], but the
/// entry returns N + 1 elements: a model that breaks its own signature.
extern const onnxc_model_desc fakeWrongDiagModel;

/// seq is a sequence of float32 [?] tensors, x a float32 [?] tensor.
/// Outputs: appended (seq with x at the back, by onnxc_seq_insert) and same
/// (seq, through the input's own handle descriptor).
extern const onnxc_model_desc fakeSeqInsertModel;

/// opt is an optional float32 tensor of any rank; the output is the same
/// handle.
extern const onnxc_model_desc fakeOptionalModel;

#ifdef __cplusplus
}
#endif

#endif /* ONNXC_TEST_RUNTIME_FAKEMODELS_H */
