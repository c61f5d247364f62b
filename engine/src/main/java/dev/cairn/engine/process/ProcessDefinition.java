package dev.cairn.engine.process;

import dev.cairn.errors.InvalidInputException;

/**
 * A process type as a plugin declares it: its entry-point name (unique across plugins,
 * e.g. "arithmetic.add"), its spec, and how it runs.
 */
public sealed interface ProcessDefinition permits CalcFunction, WorkFunction, WorkChainDefinition, CalcJobDefinition {

    String entryPoint();

    ProcessSpec spec();

    static String checkEntryPoint(String name) {
        if (name == null || !name.matches("[a-z0-9_]+(\\.[a-z0-9_]+)+")) {
            throw new InvalidInputException(
                    "entry point '" + name + "' must be dotted lower-case words, e.g. 'arithmetic.add'");
        }
        return name;
    }
}
