package dev.cairn.engine.process;

/** What a workflow's code may do besides computing: call processes in this step, and report. */
public interface FunctionScope {

    /** Runs a calcfunction or workfunction now, in this step, linked by a CALL link from the caller. */
    ProcessResult run(ProcessDefinition function, Inputs inputs);

    /** Adds a REPORT record to the caller's log. */
    void report(String message);
}
