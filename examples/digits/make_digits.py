"""make_digits.py - train a small CNN on sklearn's 8x8 digits and export it to ONNX with test data."""
import argparse
import os
import time

import numpy as np
import torch
import torch.nn as nn
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split

import onnx
from onnx import numpy_helper


class DigitsNet(nn.Module):
    """Conv-BN-Relu-MaxPool-Conv-Relu-Flatten-Gemm; returns logits (no softmax)."""

    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(),
            nn.MaxPool2d(2),                                    # 8x8 -> 4x4
            nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(),
        )
        self.classifier = nn.Linear(16 * 4 * 4, 10)

    def forward(self, x):
        return self.classifier(torch.flatten(self.features(x), 1))


def load_data():
    digits = load_digits()
    x = (digits.images / 16.0).astype(np.float32)[:, None, :, :]  # N,1,8,8 in [0,1]
    y = digits.target.astype(np.int64)
    return train_test_split(x, y, test_size=0.2, random_state=0)


def train(model, x_train, y_train, epochs, batch_size=32):
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    loss_fn = nn.CrossEntropyLoss()
    xt, yt = torch.from_numpy(x_train), torch.from_numpy(y_train)
    gen = torch.Generator().manual_seed(0)
    model.train()
    for _ in range(epochs):
        perm = torch.randperm(len(xt), generator=gen)
        for i in range(0, len(xt), batch_size):
            idx = perm[i:i + batch_size]
            opt.zero_grad()
            loss_fn(model(xt[idx]), yt[idx]).backward()
            opt.step()


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", required=True, help="output directory")
    ap.add_argument("--epochs", type=int, default=25)
    ap.add_argument("--fold-bn", action="store_true",
                    help="let the exporter fold BatchNorm into Conv (default: keep BatchNormalization)")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)

    torch.manual_seed(0)
    np.random.seed(0)
    torch.use_deterministic_algorithms(True)
    torch.set_num_threads(2)

    x_train, x_test, y_train, y_test = load_data()
    model = DigitsNet()
    t0 = time.time()
    train(model, x_train, y_train, args.epochs)
    train_s = time.time() - t0

    model.eval()
    with torch.no_grad():
        logits = model(torch.from_numpy(x_test)).numpy().astype(np.float32)
    acc = float((logits.argmax(1) == y_test).mean())

    onnx_path = os.path.join(args.out, "digits.onnx")
    # TrainingMode.EVAL makes torch fold Conv+BatchNorm; PRESERVE on an eval-mode
    # model keeps an inference BatchNormalization node instead.
    mode = torch.onnx.TrainingMode.EVAL if args.fold_bn else torch.onnx.TrainingMode.PRESERVE
    torch.onnx.export(model, torch.from_numpy(x_test[:1]), onnx_path,
                      opset_version=17, input_names=["input"], output_names=["logits"],
                      dynamic_axes={"input": {0: "N"}, "logits": {0: "N"}},
                      training=mode, do_constant_folding=args.fold_bn)
    onnx.checker.check_model(onnx.load(onnx_path))

    np.save(os.path.join(args.out, "test_images.npy"), x_test)
    with open(os.path.join(args.out, "test_images.pb"), "wb") as f:
        f.write(numpy_helper.from_array(x_test, "input").SerializeToString())
    np.save(os.path.join(args.out, "test_labels.npy"), y_test)
    np.save(os.path.join(args.out, "ref_logits.npy"), logits)

    print(f"train {len(x_train)} / test {len(x_test)} images, {args.epochs} epochs in {train_s:.1f}s")
    print(f"PyTorch test accuracy: {acc:.4f}")
    print(f"wrote {onnx_path}")
    if acc < 0.95:
        raise SystemExit(f"error: accuracy {acc:.4f} below 0.95")


if __name__ == "__main__":
    main()
