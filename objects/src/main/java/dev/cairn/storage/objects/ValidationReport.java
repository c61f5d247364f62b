package dev.cairn.storage.objects;

import java.util.List;
import java.util.Objects;

/** The findings of {@link Container#validate}: empty when every object reads back to its key. */
public record ValidationReport(long objectsChecked, List<Problem> problems) {

    /**
     * One finding.
     *
     * @param key   the damaged object, or null when the problem is not about one object
     * @param where the file concerned
     * @param what  what is wrong
     */
    public record Problem(ObjectKey key, String where, String what) {
        @Override
        public String toString() {
            return (key == null ? "" : key + ": ") + where + ": " + what;
        }
    }

    public ValidationReport {
        problems = List.copyOf(problems);
    }

    public boolean isValid() {
        return problems.isEmpty();
    }

    /** The keys named by the problems. */
    public List<ObjectKey> damagedKeys() {
        return problems.stream()
                .map(Problem::key)
                .filter(Objects::nonNull)
                .distinct()
                .toList();
    }
}
