package dev.cairn.storage.graph;

import java.util.HashSet;
import java.util.Set;

import dev.cairn.storage.errors.InvalidInputException;

/**
 * A run of an external code through a scheduler. Besides a process's state it tracks the
 * job: its state in the lifecycle, the remote work directory, the scheduler's job id and
 * what the scheduler last said, all updatable until the node is sealed.
 */
public final class CalcJobNode extends CalculationNode {

    public static final String TYPE = "process.calculation.calcjob.CalcJobNode.";

    private static final Set<String> UPDATABLE = union(
            ProcessNode.UPDATABLE,
            Set.of(
                    "state",
                    "imported",
                    "remote_workdir",
                    "retrieve_list",
                    "retrieve_temporary_list",
                    "job_id",
                    "scheduler_state",
                    "scheduler_lastchecktime",
                    "last_job_info",
                    "detailed_job_info"));

    /** A calculation job's process node, of the process type {@code processType} (its entry point). */
    public CalcJobNode(String processType) {
        super(TYPE, processType);
    }

    CalcJobNode(NodeRecord row) {
        super(row);
    }

    @Override
    Set<String> updatable() {
        return UPDATABLE;
    }

    static Set<String> updatableAttributes() {
        return UPDATABLE;
    }

    /** The scheduler's id of the job, or null before it is submitted. */
    public String jobId() {
        return (String) attribute("job_id");
    }

    /** Records the scheduler's id of the submitted job. */
    public void setJobId(String jobId) {
        setAttribute("job_id", jobId);
    }

    /** The job's working folder on the computer, or null before it is made. */
    public String remoteWorkdir() {
        return (String) attribute("remote_workdir");
    }

    /** Records the job's working folder on the computer. */
    public void setRemoteWorkdir(String path) {
        setAttribute("remote_workdir", path);
    }

    /** Sets another updatable job attribute (retrieve lists, last job info, …). */
    public void setJobAttribute(String key, Object value) {
        if (!UPDATABLE.contains(key)) {
            throw new InvalidInputException("'" + key + "' is not a job attribute; those are " + UPDATABLE);
        }
        setAttribute(key, value);
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> all = new HashSet<>(a);
        all.addAll(b);
        return Set.copyOf(all);
    }
}
