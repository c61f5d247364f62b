package dev.cairn.engine.internal.runtime;

import java.util.Map;

import dev.cairn.engine.internal.state.ProcessStates;
import dev.cairn.engine.process.CalcFunction;
import dev.cairn.engine.process.CalcJobDefinition;
import dev.cairn.engine.process.Inputs;
import dev.cairn.engine.process.JobOptions;
import dev.cairn.engine.process.ProcessDefinition;
import dev.cairn.engine.process.ProcessSpec;
import dev.cairn.engine.process.WorkChainDefinition;
import dev.cairn.engine.process.WorkFunction;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.graph.CalcFunctionNode;
import dev.cairn.storage.graph.CalcJobNode;
import dev.cairn.storage.graph.Code;
import dev.cairn.storage.graph.LinkType;
import dev.cairn.storage.graph.Node;
import dev.cairn.storage.graph.PortableCode;
import dev.cairn.storage.graph.ProcessNode;
import dev.cairn.storage.graph.WorkChainNode;
import dev.cairn.storage.graph.WorkFunctionNode;
import dev.cairn.storage.graph.WorkflowNode;

/** Makes the node of a new process, with its input links. */
public final class ProcessNodes {

    /** The CALL link label when the caller gives none. */
    public static final String DEFAULT_CALL_LABEL = "CALL";

    private ProcessNodes() {}

    /**
     * An unstored node for a launch of {@code definition} with validated inputs, in state
     * created. A calculation job's options (the defaults when null) become its attributes;
     * other processes take none.
     */
    public static ProcessNode create(ProcessDefinition definition, Map<String, Node> inputs, Inputs given) {
        JobOptions options = given.jobOptions();
        if ((options != null || given.computerId() != null) && !(definition instanceof CalcJobDefinition)) {
            throw new InvalidInputException(
                    definition.entryPoint() + " is not a calculation job: it takes no job options and no computer");
        }
        ProcessNode node = switch (definition) {
            case CalcFunction f -> new CalcFunctionNode(definition.entryPoint());
            case WorkFunction f -> new WorkFunctionNode(definition.entryPoint());
            case WorkChainDefinition<?> w -> new WorkChainNode(definition.entryPoint());
            case CalcJobDefinition j -> new CalcJobNode(definition.entryPoint());
        };
        node.setProcessLabel(definition.entryPoint());
        ProcessStates.created(node);
        if (definition instanceof CalcJobDefinition) {
            JobOptions o = options != null ? options : JobOptions.defaults();
            o.toAttributes().forEach(node::setStaticAttribute);
            node.setComputerId(computerOf(definition.entryPoint(), (Code) inputs.get("code"), given.computerId()));
        }
        LinkType inputType = node instanceof WorkflowNode ? LinkType.INPUT_WORK : LinkType.INPUT_CALC;
        inputs.forEach((path, value) -> node.addIncoming(value, inputType, ProcessSpec.linkLabel(path)));
        return node;
    }

    /** Where a job runs: an installed code's computer, or the one the launch names for a portable code. */
    private static long computerOf(String entryPoint, Code code, Long named) {
        if (code instanceof PortableCode) {
            if (named == null) {
                throw new InvalidInputException(
                        entryPoint + ": " + code.describe() + " is a portable code, uploaded with"
                                + " the job: name the computer to run it on (Inputs.onComputer, or the"
                                + " metadata 'computer' of a launch in JSON)");
            }
            return named;
        }
        if (code.computerId() == null) {
            throw new InvalidInputException(entryPoint + ": " + code.describe() + " is not installed on a computer");
        }
        if (named != null && !named.equals(code.computerId())) {
            throw new InvalidInputException(entryPoint + ": " + code.describe() + " is installed on computer "
                    + code.computerId() + ", not on computer " + named + " that the launch names");
        }
        return code.computerId();
    }

    /** Links {@code child} as called by {@code caller}. */
    public static void linkCaller(ProcessNode caller, ProcessNode child, String label) {
        LinkType type = child instanceof WorkflowNode ? LinkType.CALL_WORK : LinkType.CALL_CALC;
        child.addIncoming(caller, type, label == null ? DEFAULT_CALL_LABEL : label);
    }
}
