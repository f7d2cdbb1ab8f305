#!/usr/bin/python3
# make_value_pbs.py - Writes the SequenceProto, MapProto and OptionalProto
# fixtures in values/ with onnx.numpy_helper (onnx 1.12), for
# TensorIOTest.cpp: the runtime reads them and, writing them back, must give
# the same bytes. Regenerate with: ./make_value_pbs.py (from this directory).
import os

import numpy as np
from onnx import MapProto, SequenceProto, TensorProto, mapping
from onnx import numpy_helper as h

here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "values")


def from_dict(d, name=None):
    """numpy_helper.from_dict, whose key type check fails on numpy >= 1.24
    (isinstance against a dtype) and which cannot map str keys: the same
    MapProto, built the same way."""
    m = MapProto()
    if name:
        m.name = name
    keys = list(d.keys())
    if isinstance(keys[0], str):
        m.key_type = TensorProto.STRING
    else:
        m.key_type = mapping.NP_TYPE_TO_TENSOR_TYPE[np.array(keys[0]).dtype]
    if m.key_type == TensorProto.STRING:
        m.string_keys.extend(k.encode() for k in keys)
    else:
        m.keys.extend(keys)
    m.values.CopyFrom(h.from_list(list(d.values())))
    return m


def save(name, proto):
    with open(os.path.join(here, name), "wb") as f:
        f.write(proto.SerializeToString())


floats = [np.arange(6, dtype=np.float32).reshape(2, 3),
          np.array([1.5], dtype=np.float32),
          np.zeros((0, 2), dtype=np.float32)]
strings = [np.array(["a", "bc"], dtype=object),
           np.array([["", "xyz", "q"]], dtype=object)]
save("seq_float.pb", h.from_list(floats, name="fs"))
save("seq_string.pb", h.from_list(strings))
save("seq_empty.pb", h.from_list([]))
save("map_int64.pb", from_dict({3: np.float32(0.25), -1: np.float32(2.0)},
                                 name="m"))
save("map_string.pb", from_dict({"x": np.int64(7), "yy": np.int64(-8)}))
# from_list of dicts, which calls the broken from_dict.
seq_map = SequenceProto()
seq_map.elem_type = SequenceProto.MAP
seq_map.map_values.extend([from_dict({1: np.float32(0.5), 2: np.float32(0.5)}),
                           from_dict({1: np.float32(0.9), 2: np.float32(0.1)})])
save("seq_map.pb", seq_map)
save("opt_none.pb", h.from_optional(None))
save("opt_tensor.pb", h.from_optional(np.array([[1, 2]], dtype=np.int32)))
save("opt_seq.pb", h.from_optional(floats[:2]))
