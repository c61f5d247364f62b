package dev.cairn.storage.graph;

/**
 * An executable that calculation jobs run, with what to put around its command line.
 * {@link InstalledCode} lives on a computer; {@link PortableCode} travels with each job.
 */
public abstract sealed class Code extends Data permits InstalledCode, PortableCode {

    protected Code(String nodeType, String executable) {
        super(nodeType);
        setAttribute("filepath_executable", executable);
        setAttribute("prepend_text", "");
        setAttribute("append_text", "");
        setAttribute("with_mpi", null);
    }

    protected Code(NodeRecord row) {
        super(row);
    }

    /** The path of the executable on its computer, or in the code's files. */
    public String executable() {
        return (String) attribute("filepath_executable");
    }

    /** The calculation job plugin used when none is named, or null. */
    public String defaultCalcJobPlugin() {
        return (String) attribute("input_plugin");
    }

    /** Shell lines a job script runs before the executable, or null. */
    public String prependText() {
        return (String) attribute("prepend_text");
    }

    /** Shell lines a job script runs after the executable, or null. */
    public String appendText() {
        return (String) attribute("append_text");
    }

    /** Whether to run through MPI; null leaves it to the job's options. */
    public Boolean withMpi() {
        return (Boolean) attribute("with_mpi");
    }

    /** Names the calculation job plugin used when none is named; returns this code. */
    public Code defaultCalcJobPlugin(String entryPoint) {
        setAttribute("input_plugin", entryPoint);
        return this;
    }

    /** Sets the shell lines a job script runs before the executable; returns this code. */
    public Code prependText(String text) {
        setAttribute("prepend_text", text);
        return this;
    }

    /** Sets the shell lines a job script runs after the executable; returns this code. */
    public Code appendText(String text) {
        setAttribute("append_text", text);
        return this;
    }

    /** Whether to run through MPI (null leaves it to the job's options); returns this code. */
    public Code withMpi(Boolean withMpi) {
        setAttribute("with_mpi", withMpi);
        return this;
    }
}
