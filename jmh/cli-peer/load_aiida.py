"""The workload of jmh/compare-cli.sh in an aiida-core profile, as Cairn's server holds it after the
script's submissions: N finished add_multiply work chains (each with its x, y, z inputs, an add and a
multiply calcfunction it called, their results and the chain's result) and A work chains still created
(active: what `verdi process list` shows by default). Prints JSON with the PKs the timed commands show.

    python load_aiida.py PROFILE N A
"""
import json
import sys

from aiida import load_profile, orm
from aiida.common.links import LinkType
from plumpy.process_states import ProcessState

profile, n, active = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
load_profile(profile, allow_switch=True)


def work_chain(x, state):
    inputs = {name: orm.Int(value).store() for name, value in (('x', x), ('y', 1), ('z', 2))}
    chain = orm.WorkChainNode()
    chain.set_process_type('aiida.workflows:core.arithmetic.add_multiply')
    chain.set_process_label('MultiplyAddWorkChain')
    for name, node in inputs.items():
        chain.base.links.add_incoming(node, LinkType.INPUT_WORK, name)
    chain.set_process_state(state)
    if state is ProcessState.FINISHED:
        chain.set_exit_status(0)
    chain.store()
    if state is not ProcessState.FINISHED:
        return chain, None
    result = None
    for label, operands, value in (('add', ('x', 'y'), x + 1), ('multiply', ('z',), (x + 1) * 2)):
        calc = orm.CalcFunctionNode()
        calc.set_process_type(f'aiida.calculations:core.arithmetic.{label}')
        calc.set_process_label(label)
        for name in operands:
            calc.base.links.add_incoming(inputs[name], LinkType.INPUT_CALC, name)
        calc.base.links.add_incoming(chain, LinkType.CALL_CALC, f'CALL_{label}')
        calc.set_process_state(ProcessState.FINISHED)
        calc.set_exit_status(0)
        calc.store()
        result = orm.Int(value)
        result.base.links.add_incoming(calc, LinkType.CREATE, 'result')
        result.store()
    result.base.links.add_incoming(chain, LinkType.RETURN, 'result')
    return chain, result


finished = [work_chain(x, ProcessState.FINISHED) for x in range(n)]
created = [work_chain(n + x, ProcessState.CREATED) for x in range(active)]
chain, result = finished[n // 2]
print(json.dumps({'process': chain.pk, 'node': result.pk, 'active': created[0][0].pk}))
