"""Types of the native half of nimseq (Rust, through PyO3). Use the modules nimseq.sub,
nimseq.octal, nimseq.kcross and nimseq.arrows, which document each call."""

from typing import Any, Dict, List, Optional, Tuple, Union

import numpy as np

__version__: str

Bytes = Union[int, str, None]
# A column: a NumPy array, a list of str (text), or (values, mask) where fields are missing.
Column = Union[np.ndarray, List[str], Tuple[np.ndarray, np.ndarray]]
# A scan's columns (None when its rows went to a file), its totals as JSON and as text.
ScanResult = Tuple[Optional[Dict[str, Column]], str, str]

def sub_values(moves: str, n: int, mem_budget: Bytes = None, play: str = "normal") -> np.ndarray: ...
def sub_period(moves: str, max_len: int = ..., mem_budget: Bytes = None) -> Dict[str, Any]: ...
def sub_arithmetic(
    moves: str, max_len: int = ..., mem_budget: Bytes = None, play: str = "normal"
) -> Dict[str, Any]: ...
def sub_value(moves: str, heaps: str, mem_budget: Bytes = None, play: str = "normal") -> str: ...
def sub_scan(
    moves: int = 3,
    c_max: int = 200,
    c_min: int = 0,
    a_min: int = 1,
    a_max: Optional[int] = None,
    b_min: int = 2,
    b_max: Optional[int] = None,
    primitive: bool = False,
    theory: bool = False,
    backend: str = "auto",
    out: Optional[str] = None,
    resume: bool = False,
    format: Optional[str] = None,
    shard: str = "1/1",
    chunk_size: Optional[int] = None,
    verify_sample: Optional[float] = None,
    mem_budget: Bytes = None,
    play: str = "normal",
) -> ScanResult: ...
def octal_values(code: str, n: int, mem_budget: Bytes = None, play: str = "normal") -> np.ndarray: ...
def octal_value(code: str, heaps: str, mem_budget: Bytes = None, play: str = "normal") -> str: ...
def octal_quotient(code: str, heap_max: int, max_order: int = ..., mem_budget: Bytes = None) -> str: ...
def octal_period(
    code: str, max_len: int = ..., max_time: float = 20.0, mem_budget: Bytes = None
) -> Dict[str, Any]: ...
def octal_scan(
    digits: int = 3,
    n_max: int = 65536,
    backend: str = "auto",
    out: Optional[str] = None,
    resume: bool = False,
    format: Optional[str] = None,
    shard: str = "1/1",
    chunk_size: int = 16,
    verify_sample: Optional[float] = None,
    mem_budget: Bytes = None,
    base: int = 8,
    d0: int = 0,
) -> ScanResult: ...
def kcross_values(
    k: int, n_max: int = 50, backend: str = "auto", mem_budget: Bytes = None
) -> np.ndarray: ...
def kcross_value(board: str, k: int, backend: str = "auto", mem_budget: Bytes = None) -> int: ...
def arrows_value(tree: str, backend: str = "auto", mem_budget: Bytes = None) -> int: ...
