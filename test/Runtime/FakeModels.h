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

#ifdef __cplusplus
}
#endif

#endif /* ONNXC_TEST_RUNTIME_FAKEMODELS_H */
