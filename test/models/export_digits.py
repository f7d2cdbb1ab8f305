"""export_digits.py - the digits model of the quantization acceptance test.

Trains a small CNN (Conv-Relu-MaxPool-Conv-Relu-MaxPool-Gemm-Relu-Gemm) on sklearn's 8x8 digits
with a fixed seed, exports it to ONNX (opset 17, dynamic batch) and writes beside it:
  digits.onnx                    the fp32 model (input "input" [N,1,8,8] in [0,1], output "logits")
  calibration/input.npy          calibration samples from the training split (stacked on dim 0:
                                 onnx-opt --calibration reads one sample per row)
  test_images.npy / .pb          the test split, one batch
  test_labels.npy                its labels
  torch_accuracy.txt             PyTorch's top-1 accuracy on the test split
"""
import argparse
import os

import numpy as np
import onnx
import torch
import torch.nn as nn
from onnx import numpy_helper
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split


class DigitsCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),   # 8x8 -> 4x4
            nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),  # 4x4 -> 2x2
        )
        self.classifier = nn.Sequential(nn.Linear(32 * 2 * 2, 64), nn.ReLU(), nn.Linear(64, 10))

    def forward(self, x):
        return self.classifier(torch.flatten(self.features(x), 1))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True, help="output directory")
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--calibration-samples", type=int, default=256)
    args = ap.parse_args()
    os.makedirs(os.path.join(args.out, "calibration"), exist_ok=True)

    torch.manual_seed(0)
    np.random.seed(0)
    torch.use_deterministic_algorithms(True)
    torch.set_num_threads(2)

    digits = load_digits()
    x = (digits.images / 16.0).astype(np.float32)[:, None, :, :]
    y = digits.target.astype(np.int64)
    x_train, x_test, y_train, y_test = train_test_split(x, y, test_size=0.25, random_state=0)

    model = DigitsCNN()
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    loss_fn = nn.CrossEntropyLoss()
    xt, yt = torch.from_numpy(x_train), torch.from_numpy(y_train)
    gen = torch.Generator().manual_seed(0)
    model.train()
    for _ in range(args.epochs):
        perm = torch.randperm(len(xt), generator=gen)
        for i in range(0, len(xt), 32):
            idx = perm[i:i + 32]
            opt.zero_grad()
            loss_fn(model(xt[idx]), yt[idx]).backward()
            opt.step()
    model.eval()
    with torch.no_grad():
        logits = model(torch.from_numpy(x_test)).numpy()
    acc = float((logits.argmax(1) == y_test).mean())

    path = os.path.join(args.out, "digits.onnx")
    torch.onnx.export(model, torch.from_numpy(x_test[:1]), path, opset_version=17,
                      input_names=["input"], output_names=["logits"],
                      dynamic_axes={"input": {0: "N"}, "logits": {0: "N"}})
    onnx.checker.check_model(onnx.load(path))

    np.save(os.path.join(args.out, "calibration", "input.npy"), x_train[:args.calibration_samples])
    np.save(os.path.join(args.out, "test_images.npy"), x_test)
    with open(os.path.join(args.out, "test_images.pb"), "wb") as f:
        f.write(numpy_helper.from_array(x_test, "input").SerializeToString())
    np.save(os.path.join(args.out, "test_labels.npy"), y_test)
    with open(os.path.join(args.out, "torch_accuracy.txt"), "w") as f:
        f.write(f"{acc:.6f}\n")
    print(f"digits: {len(x_train)} train, {len(x_test)} test images; PyTorch top-1 {acc:.4f}; wrote {path}")


if __name__ == "__main__":
    main()
