"""The "functions" workload of the engine comparison, aiida-core's side.

One MulAddWorkChain = 3 processes:
  1. the WorkChain itself (inputs x, y, z: Int; one outline step, `compute`),
  2. calcfunction `add(x, y)`,
  3. calcfunction `multiply(sum, z)`, whose return value is the work chain's output `result`,
so `result` = (x + y) * z. Both calcfunctions run inside the work chain's step, in the daemon worker
that runs the work chain: no CalcJob, no transport, no scheduler, no waiting on children.

The daemon workers import this module by name (`functions_wc`), so this folder has to be on the
PYTHONPATH of `verdi daemon start` (the workers inherit its environment); aiida_engine_bench.py does that.
"""
from aiida import orm
from aiida.engine import WorkChain, calcfunction


@calcfunction
def add(x, y):
    return orm.Int(x.value + y.value)


@calcfunction
def multiply(x, y):
    return orm.Int(x.value * y.value)


class MulAddWorkChain(WorkChain):
    """(x + y) * z through two calcfunctions."""

    @classmethod
    def define(cls, spec):
        super().define(spec)
        spec.input('x', valid_type=orm.Int)
        spec.input('y', valid_type=orm.Int)
        spec.input('z', valid_type=orm.Int)
        spec.outline(cls.compute)
        spec.output('result', valid_type=orm.Int)

    def compute(self):
        total = add(self.inputs.x, self.inputs.y)
        self.out('result', multiply(total, self.inputs.z))


def expected(x, y, z):
    """What MulAddWorkChain(x, y, z) must output."""
    return (x + y) * z
