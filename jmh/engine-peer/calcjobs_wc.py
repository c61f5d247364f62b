"""The "calcjobs" workload of the engine comparison, aiida-core's side: the work chain of the AiiDA 1.0
paper's engine benchmark (Huber et al. 2020).

One AddWorkChain = 3 processes:
  1. the WorkChain itself (inputs x, y: Int, and code: the bash code on the computer `localhost`),
  2. an ArithmeticAddCalculation (the CalcJob `core.arithmetic.add` shipped with aiida-core): it writes a
     script `echo $((x + y))`, runs it with bash through the core.local transport and the core.direct
     scheduler, and parses the echoed number into its output `sum`; the work chain waits for it,
  3. calcfunction `add(sum, y)`, whose return value is the work chain's output `result`,
so `result` = x + y + y. Cairn's counterpart is examples' AddCalcJobWorkChain.

The daemon workers import this module by name (`calcjobs_wc`), so this folder has to be on the
PYTHONPATH of `verdi daemon start`; aiida_engine_bench.py does that.
"""
from aiida import orm
from aiida.engine import ToContext, WorkChain, calcfunction
from aiida.plugins import CalculationFactory

ArithmeticAddCalculation = CalculationFactory('core.arithmetic.add')

COMPUTER = 'localhost'
# what core.local defaults to as well; set explicitly so the set-up says what was measured
MINIMUM_JOB_POLL_INTERVAL = 0.1


@calcfunction
def add(x, y):
    return orm.Int(x.value + y.value)


class AddWorkChain(WorkChain):
    """x + y by a bash job, then + y by a calcfunction."""

    @classmethod
    def define(cls, spec):
        super().define(spec)
        spec.input('code', valid_type=orm.AbstractCode)
        spec.input('x', valid_type=orm.Int)
        spec.input('y', valid_type=orm.Int)
        spec.outline(cls.run_job, cls.add_y)
        spec.output('result', valid_type=orm.Int)
        spec.exit_code(400, 'ERROR_CALC_FAILED', message='the arithmetic.add job did not finish ok')

    def run_job(self):
        job = self.submit(ArithmeticAddCalculation, code=self.inputs.code, x=self.inputs.x, y=self.inputs.y,
                          metadata={'options': {'resources': {'num_machines': 1, 'num_mpiprocs_per_machine': 1}}})
        return ToContext(job=job)

    def add_y(self):
        job = self.ctx.job
        if not job.is_finished_ok:
            self.report(f'job {job.pk} ended {job.process_state} with exit status {job.exit_status}')
            return self.exit_codes.ERROR_CALC_FAILED
        self.out('result', add(job.outputs.sum, self.inputs.y))


def setup_localhost(workdir):
    """Stores the computer `localhost` (core.local, core.direct, jobs' work directories in workdir,
    minimum job poll interval 0.1 s, safe interval 0 s) and the code bash on it; returns the code.

    The profile's database is fresh for every run, so neither exists yet."""
    computer = orm.Computer(label=COMPUTER, hostname='localhost', description="the engine comparison's jobs",
                            transport_type='core.local', scheduler_type='core.direct', workdir=workdir).store()
    computer.set_default_mpiprocs_per_machine(1)
    computer.set_minimum_job_poll_interval(MINIMUM_JOB_POLL_INTERVAL)
    computer.configure(safe_interval=0.0)
    return orm.InstalledCode(label='bash', computer=computer, filepath_executable='/bin/bash').store()


def expected(x, y):
    """What AddWorkChain(x, y) must output."""
    return x + y + y
