package dev.cairn.storage.graph;

import java.util.Set;

import dev.cairn.storage.errors.InvalidInputException;

/**
 * The record of a process run: what ran ({@link #processType()}), its inputs (incoming
 * links, fixed when stored), and its state. While stored but not sealed, only the state
 * attributes and the files may change (a calculation job keeps the input files it was
 * submitted with); sealing at the end freezes the node and its links for good.
 */
public abstract sealed class ProcessNode extends Node permits CalculationNode, WorkflowNode {

    /** Attributes a stored process may change until sealed (the database enforces the same list). */
    static final Set<String> UPDATABLE = Set.of(
            "sealed",
            "paused",
            "checkpoints",
            "exception",
            "exit_message",
            "exit_status",
            "process_label",
            "process_state",
            "process_status");

    protected ProcessNode(String nodeType, String processType) {
        super(nodeType, requireProcessType(processType));
    }

    protected ProcessNode(NodeRecord row) {
        super(row);
    }

    private static String requireProcessType(String processType) {
        if (processType == null || processType.isBlank()) {
            throw new InvalidInputException("a process node needs a process type: the entry point of what ran");
        }
        return processType;
    }

    @Override
    boolean mayUpdateWhenStored(String key) {
        return !isSealed() && updatable().contains(key);
    }

    @Override
    String whyNotUpdatable() {
        return isSealed() ? " (the process is sealed)" : " (only " + updatable() + " may change until it is sealed)";
    }

    Set<String> updatable() {
        return UPDATABLE;
    }

    /** Whether the process is sealed: neither it nor its links change any more. */
    public final boolean isSealed() {
        return Boolean.TRUE.equals(attribute("sealed"));
    }

    /** Freezes the node; done by the store when the process terminates. */
    final void markSealed() {
        setAttribute("sealed", true);
    }

    /**
     * Seals a node before it is stored, for a process that is over when written (an
     * import, a bulk store): it takes its incoming and outgoing links in the transaction
     * that stores it, none later. A stored node is sealed by {@link GraphStore#seal}.
     */
    public final void sealBeforeStore() {
        requireUnstored("seal (use GraphStore.seal)");
        markSealed();
    }

    /** The process's state ({@code created}, {@code running}, {@code waiting}, {@code finished}, …), or null. */
    public final String processState() {
        return (String) attribute("process_state");
    }

    /** Sets the process's state. */
    public final void setProcessState(String state) {
        setAttribute("process_state", state);
    }

    /** What the process is doing or waiting for, in words, or null. */
    public final String processStatus() {
        return (String) attribute("process_status");
    }

    /** Sets what the process is doing or waiting for, in words. */
    public final void setProcessStatus(String status) {
        setAttribute("process_status", status);
    }

    /** The process's label for people (its class's name), or null. */
    public final String processLabel() {
        return (String) attribute("process_label");
    }

    /** Sets the process's label for people. */
    public final void setProcessLabel(String label) {
        setAttribute("process_label", label);
    }

    /** The exit status once finished (0 is success), or null. */
    public final Integer exitStatus() {
        Object status = attribute("exit_status");
        return status == null ? null : ((Number) status).intValue();
    }

    /** Sets the exit status (0 is success; null: not ended). */
    public final void setExitStatus(Integer status) {
        setAttribute("exit_status", status);
    }

    /** The message the process ended with, or null. */
    public final String exitMessage() {
        return (String) attribute("exit_message");
    }

    /** Sets the message the process ended with. */
    public final void setExitMessage(String message) {
        setAttribute("exit_message", message);
    }

    /** The exception that ended the process, with its stack trace, or null. */
    public final String exception() {
        return (String) attribute("exception");
    }

    /** Records the exception that ended the process. */
    public final void setException(String exception) {
        setAttribute("exception", exception);
    }

    /** Whether the process is paused. */
    public final boolean isPaused() {
        return Boolean.TRUE.equals(attribute("paused"));
    }

    /** Sets whether the process is paused. */
    public final void setPaused(boolean paused) {
        setAttribute("paused", paused);
    }

    /** Sets any other attribute of an unstored process (e.g. its version or options). */
    public final void setStaticAttribute(String key, Object value) {
        requireUnstored("attribute '" + key + "'");
        setAttribute(key, value);
    }
}
