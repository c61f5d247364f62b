package dev.cairn.engine.scheduler;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads {@code qstat -f}, PBS Pro's and Torque's full listing: a {@code Job Id: <id>} line per job,
 * then {@code "    Name = value"} attributes. qstat wraps long values at about 80 columns and goes on
 * on a line starting with a TAB; a value that holds a newline itself (a comment, a variable) goes on
 * on a line starting with anything else. Both are joined back into their attribute. Slurm's Torque
 * front end ({@code slurm-wlm-torque}) indents every attribute with a TAB instead and never wraps: a
 * job whose first attribute starts with a TAB, which PBS's own qstat never prints, is read that way.
 */
final class QstatListing {

    /** One job: its id as qstat prints it, and its attributes by lower-case name ("job_state", "resources_used.walltime"). */
    record Job(String id, Map<String, String> attributes) {

        String get(String name) {
            return attributes.get(name.toLowerCase(Locale.ROOT));
        }
    }

    private QstatListing() {}

    static List<Job> parse(String stdout) {
        var jobs = new ArrayList<Job>();
        String id = null;
        var lines = new ArrayList<StringBuilder>();
        boolean tabIndented = false;
        for (String line : stdout.split("\n", -1)) {
            if (line.endsWith("\r")) {
                line = line.substring(0, line.length() - 1);
            }
            if (line.startsWith("Job Id:")) {
                if (id != null) {
                    jobs.add(job(id, lines));
                }
                id = line.substring("Job Id:".length()).strip();
                lines = new ArrayList<>();
                tabIndented = false;
            } else if (line.isBlank()) {
                continue;
            } else if (id == null) {
                throw new SchedulerException("pbs: qstat -f printed '" + line + "' before the first 'Job Id:' line");
            } else if (line.startsWith("\t") && line.contains("=") && (lines.isEmpty() || tabIndented)) {
                tabIndented = true;
                lines.add(new StringBuilder(line.strip()));
            } else if (line.startsWith("\t") && !lines.isEmpty()) {
                lines.getLast().append(line, 1, line.length());
            } else if (line.startsWith(" ") && line.contains("=")) {
                lines.add(new StringBuilder(line.stripLeading()));
            } else if (!lines.isEmpty()) {
                lines.getLast().append('\n').append(line);
            } else {
                throw new SchedulerException("pbs: qstat -f line '" + line + "' of job " + id + " is not an attribute");
            }
        }
        if (id != null) {
            jobs.add(job(id, lines));
        }
        return jobs;
    }

    private static Job job(String id, List<StringBuilder> lines) {
        var attributes = new LinkedHashMap<String, String>();
        for (StringBuilder l : lines) {
            int eq = l.indexOf("=");
            attributes.put(
                    l.substring(0, eq).strip().toLowerCase(Locale.ROOT),
                    l.substring(eq + 1).strip());
        }
        return new Job(id, attributes);
    }
}
