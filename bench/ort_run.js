#!/usr/bin/env node
// ort_run.js - run an ONNX model with ONNX Runtime (onnxruntime-node), the reference engine of the benchmarks.
//
//   node ort_run.js MODEL.onnx [--output-dir DIR] [--threads T] [--bench N]
//                   [--save-optimized PATH] [--level L] [--version] INPUT.pb ...
//
// The command line mirrors a compiled onnxc executable's: INPUT files are ONNX TensorProto
// (.pb) files in the model's input order (no strings); the first run writes DIR/output_K.pb (only when
// --output-dir is given) and doubles as the warm-up; --bench N then times N more runs and
// prints one JSON line {"median_ms", "min_ms", "iterations", "threads"}.
// The session uses graphOptimizationLevel 'all' (or L: disabled, basic, extended, all),
// intraOpNumThreads T, interOpNumThreads 1 and sequential execution. --save-optimized writes
// the model as ORT optimized it.
'use strict';

const fs = require('fs');
const path = require('path');

// ONNX TensorProto.DataType -> [ORT type name, typed array constructor].
const DTYPES = {
  1: ['float32', Float32Array],
  2: ['uint8', Uint8Array],
  3: ['int8', Int8Array],
  4: ['uint16', Uint16Array],
  5: ['int16', Int16Array],
  6: ['int32', Int32Array],
  7: ['int64', BigInt64Array],
  9: ['bool', Uint8Array],
  10: ['float16', Uint16Array],
  11: ['float64', Float64Array],
  12: ['uint32', Uint32Array],
  13: ['uint64', BigUint64Array],
};
const DTYPE_OF_ORT = Object.fromEntries(Object.entries(DTYPES).map(([k, [name]]) => [name, Number(k)]));

function fail(message, status = 1) {
  process.stderr.write(`error: ${message}\n`);
  process.exit(status);
}

// ---- A minimal protobuf reader/writer for onnx.TensorProto ---------------------------------

class Reader {
  constructor(buf) {
    this.buf = buf;
    this.pos = 0;
  }
  done() {
    return this.pos >= this.buf.length;
  }
  varint() { // as BigInt: int64 fields may use all 64 bits
    let result = 0n;
    for (let shift = 0n; ; shift += 7n) {
      if (this.pos >= this.buf.length) throw new Error('truncated varint');
      const b = this.buf[this.pos++];
      result |= BigInt(b & 0x7f) << shift;
      if (!(b & 0x80)) return result;
    }
  }
  bytes() {
    const n = Number(this.varint());
    if (this.pos + n > this.buf.length) throw new Error('truncated field');
    const view = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return view;
  }
  skip(wire) {
    if (wire === 0) this.varint();
    else if (wire === 1) this.pos += 8;
    else if (wire === 2) this.bytes();
    else if (wire === 5) this.pos += 4;
    else throw new Error(`unsupported wire type ${wire}`);
  }
}

// Values of a repeated scalar field, packed (wire type 2) or not.
function repeated(reader, wire, scalarWire, out, readOne) {
  if (wire === 2 && scalarWire !== 2) {
    const sub = new Reader(reader.bytes());
    while (!sub.done()) out.push(readOne(sub));
  } else {
    out.push(readOne(reader));
  }
}

const readVarint = (r) => r.varint();
const readFloat = (r) => {
  const v = Buffer.from(r.buf.buffer, r.buf.byteOffset + r.pos, 4).readFloatLE(0);
  r.pos += 4;
  return v;
};
const readDouble = (r) => {
  const v = Buffer.from(r.buf.buffer, r.buf.byteOffset + r.pos, 8).readDoubleLE(0);
  r.pos += 8;
  return v;
};

function decodeTensor(buf, file) {
  const r = new Reader(buf);
  const dims = [];
  const floats = [], ints32 = [], ints64 = [], doubles = [], uints64 = [];
  let dataType = 0, name = '', raw = null, external = false;
  while (!r.done()) {
    const key = Number(r.varint());
    const field = key >>> 3, wire = key & 7;
    switch (field) {
      case 1: repeated(r, wire, 0, dims, readVarint); break;
      case 2: dataType = Number(r.varint()); break;
      case 4: repeated(r, wire, 5, floats, readFloat); break;
      case 5: repeated(r, wire, 0, ints32, readVarint); break;
      case 6: fail(`${file}: string tensors are not supported`); break;
      case 7: repeated(r, wire, 0, ints64, readVarint); break;
      case 8: name = Buffer.from(r.bytes()).toString('utf8'); break;
      case 9: raw = r.bytes(); break;
      case 10: repeated(r, wire, 1, doubles, readDouble); break;
      case 11: repeated(r, wire, 0, uints64, readVarint); break;
      case 13: external = true; r.skip(wire); break;
      default: r.skip(wire);
    }
  }
  if (external) fail(`${file}: tensors with external data are not supported`);
  if (!DTYPES[dataType]) fail(`${file}: unsupported data type ${dataType}`);
  const [type, Ctor] = DTYPES[dataType];
  const shape = dims.map((d) => Number(BigInt.asIntN(64, d)));
  const count = shape.reduce((a, b) => a * b, 1);
  let data;
  if (raw) {
    if (raw.length !== count * Ctor.BYTES_PER_ELEMENT)
      fail(`${file}: raw_data has ${raw.length} bytes, expected ${count * Ctor.BYTES_PER_ELEMENT}`);
    data = new Ctor(count);  // a copy: raw may be unaligned
    new Uint8Array(data.buffer).set(raw);
  } else {
    data = new Ctor(count);
    const src = { 1: floats, 11: doubles, 7: ints64, 13: uints64 }[dataType] || ints32;
    if (src.length !== count) fail(`${file}: ${src.length} values for ${count} elements`);
    for (let i = 0; i < count; ++i) {
      const v = src[i];
      if (Ctor === BigInt64Array) data[i] = BigInt.asIntN(64, v);
      else if (Ctor === BigUint64Array) data[i] = BigInt.asUintN(64, v);
      else if (typeof v === 'bigint') data[i] = Number(BigInt.asIntN(32, v));
      else data[i] = v;
    }
  }
  return { name, type, shape, data };
}

function varintBytes(value) { // value: BigInt >= 0 or Number >= 0
  let v = BigInt.asUintN(64, BigInt(value));
  const out = [];
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v) b |= 0x80;
    out.push(b);
  } while (v);
  return out;
}

function encodeTensor(tensor, name) {
  if (tensor.type === 'string') return encodeStrings(tensor, name);
  const dataType = DTYPE_OF_ORT[tensor.type];
  if (!dataType) fail(`output '${name}': unsupported type ${tensor.type}`);
  const data = tensor.data;
  const raw = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const dims = [].concat(...tensor.dims.map(varintBytes));
  const nameBytes = Buffer.from(name, 'utf8');
  const parts = [
    Buffer.from([(1 << 3) | 2, ...varintBytes(dims.length), ...dims]),
    Buffer.from([(2 << 3) | 0, ...varintBytes(dataType)]),
    Buffer.from([(8 << 3) | 2, ...varintBytes(nameBytes.length)]), nameBytes,
    Buffer.from([(9 << 3) | 2, ...varintBytes(raw.length)]), raw,
  ];
  return Buffer.concat(parts);
}

// A string tensor (a classifier's string labels) as a TensorProto of string_data.
function encodeStrings(tensor, name) {
  const dims = [].concat(...tensor.dims.map(varintBytes));
  const nameBytes = Buffer.from(name, 'utf8');
  const parts = [
    Buffer.from([(1 << 3) | 2, ...varintBytes(dims.length), ...dims]),
    Buffer.from([(2 << 3) | 0, 8]),
    Buffer.from([(8 << 3) | 2, ...varintBytes(nameBytes.length)]), nameBytes,
  ];
  for (const s of tensor.data) {
    const bytes = Buffer.from(s, 'utf8');
    parts.push(Buffer.from([(6 << 3) | 2, ...varintBytes(bytes.length)]), bytes);
  }
  return Buffer.concat(parts);
}

// ---- Command line ---------------------------------------------------------------------------

function parseArgs(argv) {
  const opts = { threads: 1, bench: 0, outputDir: null, saveOptimized: null, model: null, inputs: [] };
  for (let i = 0; i < argv.length; ++i) {
    const a = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) fail(`${a} needs a value`, 2);
      return argv[++i];
    };
    const whole = (s, lo, hi) => {
      if (!/^\d+$/.test(s) || Number(s) < lo || Number(s) > hi) fail(`${a} needs a whole number in [${lo}, ${hi}], not '${s}'`, 2);
      return Number(s);
    };
    if (a === '--threads') opts.threads = whole(value(), 1, 4096);
    else if (a === '--bench') opts.bench = whole(value(), 1, 1e8);
    else if (a === '--output-dir') opts.outputDir = value();
    else if (a === '--save-optimized') opts.saveOptimized = value();
    else if (a === '--level') {
      opts.level = value();
      if (!['disabled', 'basic', 'extended', 'all'].includes(opts.level))
        fail(`--level must be disabled, basic, extended or all (got ${opts.level})`, 2);
    }
    else if (a === '--version') opts.version = true;
    else if (a === '--help' || a === '-h') {
      process.stdout.write('usage: node ort_run.js MODEL.onnx [--output-dir DIR] [--threads T] [--bench N] ' +
                           '[--save-optimized PATH] [--level L] [--version] INPUT.pb ...\n');
      process.exit(0);
    } else if (a.startsWith('--')) fail(`unknown option ${a}`, 2);
    else if (!opts.model) opts.model = a;
    else opts.inputs.push(a);
  }
  return opts;
}

function median(sorted) {
  const n = sorted.length;
  return n % 2 ? sorted[(n - 1) / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  let ort;
  try {
    ort = require('onnxruntime-node');
  } catch (e) {
    fail(`cannot load onnxruntime-node (run bench/setup.sh): ${e.message}`);
  }
  if (opts.version) {
    process.stdout.write(`${ort.env.versions.node}\n`);
    if (!opts.model) return;
  }
  if (!opts.model) fail('no model given', 2);

  const sessionOptions = {
    graphOptimizationLevel: opts.level || 'all',
    intraOpNumThreads: opts.threads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    logSeverityLevel: 3,
  };
  if (opts.saveOptimized) sessionOptions.optimizedModelFilePath = path.resolve(opts.saveOptimized);
  const session = await ort.InferenceSession.create(opts.model, sessionOptions);

  const names = session.inputNames;
  if (opts.inputs.length !== names.length)
    fail(`expected ${names.length} input${names.length === 1 ? '' : 's'} but got ${opts.inputs.length}`);
  const feeds = {};
  names.forEach((name, i) => {
    const t = decodeTensor(fs.readFileSync(opts.inputs[i]), opts.inputs[i]);
    feeds[name] = new ort.Tensor(t.type, t.data, t.shape);
  });

  // The run that produces the outputs doubles as the benchmark's warm-up.
  const outputs = await session.run(feeds);
  if (opts.outputDir) {
    fs.mkdirSync(opts.outputDir, { recursive: true });
    session.outputNames.forEach((name, k) => {
      fs.writeFileSync(path.join(opts.outputDir, `output_${k}.pb`), encodeTensor(outputs[name], name));
    });
  }
  if (opts.bench) {
    const times = [];
    for (let i = 0; i < opts.bench; ++i) {
      const start = process.hrtime.bigint();
      await session.run(feeds);
      times.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
    times.sort((a, b) => a - b);
    process.stdout.write(JSON.stringify({
      median_ms: median(times), min_ms: times[0], iterations: opts.bench, threads: opts.threads,
    }) + '\n');
  }
  await session.release();
}

main().catch((e) => fail(e && e.message ? e.message : String(e)));
