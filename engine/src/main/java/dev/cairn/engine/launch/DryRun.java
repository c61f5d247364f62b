package dev.cairn.engine.launch;

import java.nio.file.Path;
import java.util.List;

/**
 * A calculation job prepared without running it: its input files and submit script in
 * {@code folder}, as they would be uploaded to {@code workdir} on the computer.
 *
 * @param script       the submit script, also written into the folder
 * @param retrieveList the files that would be brought back when the job is done
 */
public record DryRun(Path folder, String workdir, String jobName, String script, List<String> retrieveList) {

    public DryRun {
        retrieveList = List.copyOf(retrieveList);
    }
}
