#!/usr/bin/python3
"""Names the BLAS PyTorch really loads (Debian's PyTorch takes whatever libblas.so.3 the system
provides: netlib's reference BLAS unless OpenBLAS is installed, scripts/deps.sh bench), for the
benchmarks that set PyTorch beside PE Lab."""
import re

import torch

a = torch.randn(512, 512)
(a @ a).sum().item()
libraries = sorted({line.split()[-1] for line in open("/proc/self/maps")
                    if re.search(r"blas|lapack|mkl", line.split()[-1])})
print(f"anchor: PyTorch {torch.__version__}, BLAS: " + (", ".join(libraries) or "none found"))
