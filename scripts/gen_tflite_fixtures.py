#!/usr/bin/env python3
"""Writes the TensorFlow Lite test models, their inputs and the reference outputs.

Runs in the pinned environment of scripts/tflite-venv.sh (tensorflow-cpu for the converter,
ai-edge-litert for the reference interpreter), never in the default test suite, which uses the
checked-in files (tests/runtime/tflite/).

Every model is a small Keras network with random weights, converted by TensorFlow's
TFLiteConverter with full-integer quantisation (a representative dataset of 16 samples from a
normal distribution, TFLITE_BUILTINS_INT8): per-channel int8 weights, int8 activations with
zero points, int32 biases, int8 inputs and outputs (the `quantize_dequantize` case keeps float
inputs and outputs, which makes the converter add QUANTIZE and DEQUANTIZE; the `*_uint8_io`
cases have uint8 inputs and outputs, inference_input_type and inference_output_type uint8 as
TinyML deployments often ask, which makes it add QUANTIZE between uint8 and int8; the
`legacy_uint8` case is TF1's older asymmetric uint8 quantisation, uint8 weights with a zero
point, which the compiler refuses). For each NAME the output folder gets:

  NAME.tflite   the converter's flatbuffer
  NAME.npz      in0, in1, ... (the inputs, in the model's input types) and out0, out1, ...
                (the outputs of ai-edge-litert's interpreter with its reference kernels,
                OpResolverType.BUILTIN_REF: what TFLite Micro, CMSIS-NN and Ethos-U are
                held bit-exact against)

and manifest.txt: one line per model with its operators (builtin names, in execution order,
counted), and a header with the versions. Keras names layers from a counter of the process, so
the tensor names in a file depend on the cases written before it in the same run (the
checked-in files come from one run of every case); weights, quantisation and outputs do not.

The per-operator cases cover CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED, ADD, SUB, MUL,
AVERAGE_POOL_2D, MAX_POOL_2D, MEAN, RESHAPE, SOFTMAX, LOGISTIC, TANH, HARD_SWISH, RELU,
RELU6, LEAKY_RELU, CONCATENATION, PAD, QUANTIZE, DEQUANTIZE, TRANSPOSE, STRIDED_SLICE, SPLIT,
RESIZE_NEAREST_NEIGHBOR, RESIZE_BILINEAR and TRANSPOSE_CONV; the whole models have the shapes
of MLPerf Tiny's four reference workloads: a DS-CNN keyword spotter (49x10x1), MobileNetV1
0.25 at 96x96x3 (visual wake words), ResNet-8 for CIFAR-10 (32x32x3) and the dense
autoencoder of anomaly detection (640 inputs).

Usage:
  gen_tflite_fixtures.py OUT_DIR [NAME ...]   write the models (all, or the ones named)
  gen_tflite_fixtures.py --list               print the case names
"""

import argparse
import os
import sys

import numpy as np

PINNED = {"tensorflow": "2.21.0", "ai_edge_litert": "2.3.0"}


# ---- the cases -------------------------------------------------------------------------------
# Each case builds a Keras model from keras (the module) and returns it; input shapes are
# batch 1. A case's inputs are random int8 values over the whole range (float cases: normal
# samples); the representative dataset is normal with the standard deviation given.

def _seq(keras, shape, *layers):
    inp = keras.Input(shape, batch_size=1)
    x = inp
    for layer in layers:
        x = layer(x)
    return keras.Model(inp, x)


def _two(keras, shape_a, shape_b, fn):
    a = keras.Input(shape_a, batch_size=1)
    b = keras.Input(shape_b, batch_size=1)
    return keras.Model([a, b], fn(a, b))


def conv_2d(keras, tf):
    return _seq(keras, (9, 11, 3), keras.layers.Conv2D(8, 3, strides=2, padding="same",
                                                       activation="relu"))


def conv_2d_valid(keras, tf):
    return _seq(keras, (8, 8, 4), keras.layers.Conv2D(6, (3, 2), padding="valid",
                                                      dilation_rate=(1, 2)))


def depthwise_conv_2d(keras, tf):
    return _seq(keras, (10, 10, 8), keras.layers.DepthwiseConv2D(3, padding="same",
                                                                 activation="relu6"))


def depthwise_conv_2d_mult(keras, tf):
    return _seq(keras, (9, 9, 4), keras.layers.DepthwiseConv2D(3, strides=2, padding="valid",
                                                               depth_multiplier=2))


def fully_connected(keras, tf):
    return _seq(keras, (40,), keras.layers.Dense(16))


def fully_connected_relu(keras, tf):
    return _seq(keras, (4, 24), keras.layers.Flatten(), keras.layers.Dense(10, activation="relu"))


def add(keras, tf):
    return _two(keras, (6, 6, 4), (6, 6, 4), lambda a, b: keras.layers.Add()([a, 3.0 * b]))


def add_broadcast(keras, tf):
    return _two(keras, (5, 5, 4), (1, 1, 4), lambda a, b: a + b)


def sub(keras, tf):
    return _two(keras, (6, 6, 4), (6, 6, 4), lambda a, b: keras.layers.Subtract()([a, b]))


def mul(keras, tf):
    return _two(keras, (6, 6, 4), (6, 6, 4), lambda a, b: keras.layers.Multiply()([a, b]))


def average_pool_2d(keras, tf):
    return _seq(keras, (9, 9, 4), keras.layers.AveragePooling2D(3, strides=2, padding="same"))


def max_pool_2d(keras, tf):
    return _seq(keras, (9, 9, 4), keras.layers.MaxPooling2D(2, strides=2, padding="valid"))


def max_pool_2d_same(keras, tf):
    return _seq(keras, (10, 9, 3), keras.layers.MaxPooling2D(3, strides=2, padding="same"))


def mean(keras, tf):
    return _seq(keras, (7, 5, 6), keras.layers.Lambda(
        lambda x: tf.reduce_mean(x, axis=[1, 2], keepdims=True)))


def reshape(keras, tf):
    return _seq(keras, (4, 6, 2), keras.layers.Dense(5), keras.layers.Reshape((8, 15)))


def softmax(keras, tf):
    return _seq(keras, (3, 10), keras.layers.Softmax())


def logistic(keras, tf):
    return _seq(keras, (8, 8), keras.layers.Activation("sigmoid"))


def tanh(keras, tf):
    return _seq(keras, (8, 8), keras.layers.Activation("tanh"))


def hard_swish(keras, tf):
    return _seq(keras, (8, 8), keras.layers.Lambda(lambda x: x * tf.nn.relu6(x + 3.0) / 6.0))


def relu(keras, tf):
    # After a transpose, which has no fused activation, the ReLU stays an operator.
    return _seq(keras, (6, 8), keras.layers.Permute((2, 1)), keras.layers.ReLU())


def relu6(keras, tf):
    return _seq(keras, (6, 8), keras.layers.Permute((2, 1)), keras.layers.ReLU(max_value=6.0))


def leaky_relu(keras, tf):
    return _seq(keras, (8, 8), keras.layers.LeakyReLU(negative_slope=0.2))


def concatenation(keras, tf):
    return _two(keras, (4, 4, 3), (4, 4, 5),
                lambda a, b: keras.layers.Concatenate()([a, 2.0 * b]))


def pad(keras, tf):
    return _seq(keras, (5, 5, 3), keras.layers.Lambda(
        lambda x: tf.pad(x, [[0, 0], [1, 2], [2, 1], [0, 0]])))


def quantize_dequantize(keras, tf):
    return _seq(keras, (6, 6, 4), keras.layers.Conv2D(4, 1))


def transpose(keras, tf):
    return _seq(keras, (3, 4, 5), keras.layers.Lambda(
        lambda x: tf.transpose(x, [0, 3, 1, 2])))


def strided_slice(keras, tf):
    return _seq(keras, (8, 9, 6), keras.layers.Lambda(lambda x: x[:, 1:7, ::2, 2:5]))


def split(keras, tf):
    inp = keras.Input((4, 4, 6), batch_size=1)
    a, b, c = keras.layers.Lambda(lambda x: tf.split(x, 3, axis=-1))(inp)
    return keras.Model(inp, [a, b, c])


def resize_nearest_neighbor(keras, tf):
    return _seq(keras, (4, 5, 3), keras.layers.Lambda(
        lambda x: tf.image.resize(x, (8, 10), method="nearest")))


def resize_bilinear(keras, tf):
    return _seq(keras, (4, 5, 3), keras.layers.Lambda(
        lambda x: tf.image.resize(x, (7, 9), method="bilinear")))


def conv_2d_uint8_io(keras, tf):
    # Converted with uint8 input and output: QUANTIZE uint8 -> int8 before the convolution and
    # int8 -> uint8 after it.
    return _seq(keras, (8, 7, 3), keras.layers.Conv2D(5, 3, padding="same", activation="relu"))


def fully_connected_uint8_io(keras, tf):
    return _seq(keras, (24,), keras.layers.Dense(12), keras.layers.Softmax())


def legacy_uint8(keras, tf):
    """TFLite's older asymmetric uint8 quantisation (weights uint8 with a zero point): made by
    the TF1 converter from a graph (convert_legacy_uint8), not from Keras."""
    raise NotImplementedError


def transpose_conv(keras, tf):
    return _seq(keras, (5, 5, 4), keras.layers.Conv2DTranspose(3, 3, strides=2,
                                                               padding="same"))


# ---- MLPerf Tiny-shaped models ----------------------------------------------------------------

def _bn_relu(keras, x):
    x = keras.layers.BatchNormalization()(x)
    return keras.layers.ReLU()(x)


def ds_cnn(keras, tf):
    """Keyword spotting: DS-CNN (S) on 49x10 MFCC features, 12 classes."""
    inp = keras.Input((49, 10, 1), batch_size=1)
    x = keras.layers.Conv2D(64, (10, 4), strides=2, padding="same")(inp)
    x = _bn_relu(keras, x)
    for _ in range(4):
        x = keras.layers.DepthwiseConv2D(3, padding="same")(x)
        x = _bn_relu(keras, x)
        x = keras.layers.Conv2D(64, 1)(x)
        x = _bn_relu(keras, x)
    x = keras.layers.AveragePooling2D(pool_size=(25, 5))(x)
    x = keras.layers.Flatten()(x)
    x = keras.layers.Dense(12)(x)
    return keras.Model(inp, keras.layers.Softmax()(x))


def mobilenet_v1_025(keras, tf):
    """Visual wake words: MobileNetV1 with width 0.25 at 96x96x3, 2 classes."""
    inp = keras.Input((96, 96, 3), batch_size=1)
    x = keras.layers.Conv2D(8, 3, strides=2, padding="same")(inp)
    x = keras.layers.ReLU(6.0)(keras.layers.BatchNormalization()(x))
    for filters, stride in ((16, 1), (32, 2), (32, 1), (64, 2), (64, 1), (128, 2), (128, 1),
                            (128, 1), (128, 1), (128, 1), (128, 1), (256, 2), (256, 1)):
        x = keras.layers.DepthwiseConv2D(3, strides=stride, padding="same")(x)
        x = keras.layers.ReLU(6.0)(keras.layers.BatchNormalization()(x))
        x = keras.layers.Conv2D(filters, 1)(x)
        x = keras.layers.ReLU(6.0)(keras.layers.BatchNormalization()(x))
    x = keras.layers.AveragePooling2D(pool_size=3)(x)
    x = keras.layers.Flatten()(x)
    x = keras.layers.Dense(2)(x)
    return keras.Model(inp, keras.layers.Softmax()(x))


def resnet8(keras, tf):
    """Image classification: ResNet-8 for CIFAR-10 (32x32x3), 10 classes."""
    inp = keras.Input((32, 32, 3), batch_size=1)
    x = keras.layers.Conv2D(16, 3, padding="same")(inp)
    x = _bn_relu(keras, x)
    for filters, stride in ((16, 1), (32, 2), (64, 2)):
        y = keras.layers.Conv2D(filters, 3, strides=stride, padding="same")(x)
        y = _bn_relu(keras, y)
        y = keras.layers.Conv2D(filters, 3, padding="same")(y)
        y = keras.layers.BatchNormalization()(y)
        if stride != 1:
            x = keras.layers.Conv2D(filters, 1, strides=stride)(x)
        x = keras.layers.ReLU()(keras.layers.Add()([x, y]))
    x = keras.layers.AveragePooling2D(pool_size=8)(x)
    x = keras.layers.Flatten()(x)
    x = keras.layers.Dense(10)(x)
    return keras.Model(inp, keras.layers.Softmax()(x))


def autoencoder(keras, tf):
    """Anomaly detection: the dense autoencoder on 640 log-mel features (128 x4, 8, 128 x4)."""
    inp = keras.Input((640,), batch_size=1)
    x = inp
    for units in (128, 128, 128, 128, 8, 128, 128, 128, 128):
        x = _bn_relu(keras, keras.layers.Dense(units)(x))
    return keras.Model(inp, keras.layers.Dense(640)(x))


CASES = {f.__name__: f for f in (
    conv_2d, conv_2d_valid, depthwise_conv_2d, depthwise_conv_2d_mult, fully_connected,
    fully_connected_relu, add, add_broadcast, sub, mul, average_pool_2d, max_pool_2d, mean,
    reshape, softmax, logistic, tanh, hard_swish, relu, relu6, leaky_relu, concatenation, pad,
    quantize_dequantize, transpose, strided_slice, split, resize_nearest_neighbor,
    resize_bilinear, transpose_conv, ds_cnn, mobilenet_v1_025, resnet8, autoencoder,
    max_pool_2d_same, conv_2d_uint8_io, fully_connected_uint8_io, legacy_uint8)}
MODELS = ("ds_cnn", "mobilenet_v1_025", "resnet8", "autoencoder")
FLOAT_IO = ("quantize_dequantize",)
UINT8_IO = ("conv_2d_uint8_io", "fully_connected_uint8_io")  # inference_input/output_type uint8


# ---- conversion and reference ----------------------------------------------------------------

def _randomise_batch_norm(keras, model, rng):
    """Random BatchNormalization statistics, so that folded scales differ per channel."""
    for layer in model.layers:
        if isinstance(layer, keras.layers.BatchNormalization):
            gamma, beta, mean_, var = layer.get_weights()
            n = gamma.shape[0]
            layer.set_weights([rng.uniform(0.5, 1.5, n).astype(np.float32),
                               rng.normal(0, 0.2, n).astype(np.float32),
                               rng.normal(0, 0.2, n).astype(np.float32),
                               rng.uniform(0.5, 2.0, n).astype(np.float32)])


def convert_legacy_uint8(tf):
    """A fully connected layer and ReLU quantised the old way: TF1's converter with
    inference_type uint8, the input's (mean, std) and default activation ranges (0, 6), which
    makes uint8 activations and uint8 weights with a non-zero zero point."""
    rng = np.random.default_rng(_seed("legacy_uint8"))
    tf.compat.v1.disable_eager_execution()
    g = tf.Graph()
    with g.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [1, 24], name="x")
        w = tf.constant(rng.normal(0, 0.3, (24, 12)).astype(np.float32))
        y = tf.nn.relu(tf.matmul(x, w), name="y")
        with tf.compat.v1.Session(graph=g) as session:
            conv = tf.compat.v1.lite.TFLiteConverter.from_session(session, [x], [y])
            conv.inference_type = tf.uint8
            conv.quantized_input_stats = {"x": (128.0, 32.0)}
            conv.default_ranges_stats = (0.0, 6.0)
            data = conv.convert()
    tf.compat.v1.enable_eager_execution()
    return data


def convert(name, tf, keras):
    if name == "legacy_uint8":
        return convert_legacy_uint8(tf)
    keras.utils.set_random_seed(_seed(name))
    model = CASES[name](keras, tf)
    rng = np.random.default_rng(_seed(name))
    _randomise_batch_norm(keras, model, rng)
    shapes = [tuple(int(d) for d in t.shape) for t in model.inputs]

    def representative():
        r = np.random.default_rng(1)
        for _ in range(16):
            yield [r.standard_normal(s).astype(np.float32) for s in shapes]

    conv = tf.lite.TFLiteConverter.from_keras_model(model)
    conv.optimizations = [tf.lite.Optimize.DEFAULT]
    conv.representative_dataset = representative
    conv.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS_INT8]
    if name in UINT8_IO:
        conv.inference_input_type = tf.uint8
        conv.inference_output_type = tf.uint8
    elif name not in FLOAT_IO:
        conv.inference_input_type = tf.int8
        conv.inference_output_type = tf.int8
    return conv.convert()


def _seed(name):
    return sum((i + 1) * ord(c) for i, c in enumerate(name)) % 100003


def reference(name, flatbuffer):
    from ai_edge_litert.interpreter import Interpreter, OpResolverType
    interp = Interpreter(model_content=flatbuffer,
                         experimental_op_resolver_type=OpResolverType.BUILTIN_REF)
    interp.allocate_tensors()
    rng = np.random.default_rng(_seed(name) + 7)
    arrays = {}
    for i, d in enumerate(interp.get_input_details()):
        if d["dtype"] == np.float32:
            x = rng.standard_normal(d["shape"]).astype(np.float32)
        else:
            lo = 0 if d["dtype"] == np.uint8 else -128
            x = rng.integers(lo, lo + 256, d["shape"]).astype(d["dtype"])
        interp.set_tensor(d["index"], x)
        arrays[f"in{i}"] = x
    interp.invoke()
    for i, d in enumerate(interp.get_output_details()):
        arrays[f"out{i}"] = interp.get_tensor(d["index"])
    ops = [op["op_name"] for op in interp._get_ops_details()]
    return arrays, ops


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out_dir", nargs="?", help="folder for NAME.tflite, NAME.npz, manifest.txt")
    ap.add_argument("names", nargs="*", help="cases to write (default: all)")
    ap.add_argument("--list", action="store_true", help="print the case names and exit")
    args = ap.parse_args(argv)
    if args.list:
        print("\n".join(CASES))
        return 0
    if not args.out_dir:
        ap.error("OUT_DIR is required")
    unknown = [n for n in args.names if n not in CASES]
    if unknown:
        ap.error(f"unknown case(s): {', '.join(unknown)} (see --list)")
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow as tf
    import ai_edge_litert
    keras = tf.keras
    versions = {"tensorflow": tf.__version__, "ai_edge_litert": ai_edge_litert.__version__}
    for pkg, want in PINNED.items():
        if versions[pkg] != want:
            print(f"gen_tflite_fixtures: {pkg} {versions[pkg]} is not the pinned {want} "
                  "(run scripts/tflite-venv.sh)", file=sys.stderr)
            return 1
    os.makedirs(args.out_dir, exist_ok=True)
    manifest_path = os.path.join(args.out_dir, "manifest.txt")
    lines = {}
    if os.path.exists(manifest_path):
        for line in open(manifest_path):
            if not line.startswith("#") and line.strip():
                lines[line.split()[0]] = line.rstrip("\n")
    for name in args.names or CASES:
        flatbuffer = convert(name, tf, keras)
        arrays, ops = reference(name, flatbuffer)
        with open(os.path.join(args.out_dir, name + ".tflite"), "wb") as f:
            f.write(flatbuffer)
        np.savez(os.path.join(args.out_dir, name + ".npz"), **arrays)
        counts = {}
        for op in ops:
            counts[op] = counts.get(op, 0) + 1
        lines[name] = f"{name} " + " ".join(f"{op}x{n}" for op, n in counts.items())
        print(f"gen_tflite_fixtures: {lines[name]} ({len(flatbuffer)} bytes)", file=sys.stderr)
    with open(manifest_path, "w") as f:
        f.write(f"# tensorflow {versions['tensorflow']} (TFLiteConverter, full-integer int8), "
                f"ai-edge-litert {versions['ai_edge_litert']} (BUILTIN_REF kernels)\n")
        f.write("# NAME OPERATORxCOUNT ... (execution order)\n")
        for name in CASES:
            if name in lines:
                f.write(lines[name] + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
