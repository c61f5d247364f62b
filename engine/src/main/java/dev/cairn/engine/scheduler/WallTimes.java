package dev.cairn.engine.scheduler;

import java.util.regex.Pattern;

/** Durations as batch systems write them: SLURM's {@code D-HH:MM:SS}, PBS's {@code HH:MM:SS}, ps's etime. */
final class WallTimes {

    /** [days-][hours:]minutes:seconds; squeue, qstat and ps (etime) all print elapsed time this way. */
    private static final Pattern ELAPSED = Pattern.compile("(?:(\\d+)-)?(?:(\\d+):)?(\\d+):(\\d+)");

    private WallTimes() {}

    /** SLURM's {@code --time}: {@code HH:MM:SS}, with {@code D-} in front from one day on. */
    static String slurm(long seconds) {
        long days = seconds / 86_400;
        String clock = clock(seconds % 86_400);
        return days == 0 ? clock : days + "-" + clock;
    }

    /** PBS's {@code walltime}: {@code HH:MM:SS}, the hours going past 24. */
    static String pbs(long seconds) {
        return clock(seconds);
    }

    /** Seconds in an elapsed time, or null for anything else ("", "INVALID", "N/A"). */
    static Long parseElapsed(String text) {
        var m = ELAPSED.matcher(text.strip());
        if (!m.matches()) {
            return null;
        }
        long days = m.group(1) == null ? 0 : Long.parseLong(m.group(1));
        long hours = m.group(2) == null ? 0 : Long.parseLong(m.group(2));
        return ((days * 24 + hours) * 60 + Long.parseLong(m.group(3))) * 60 + Long.parseLong(m.group(4));
    }

    private static String clock(long seconds) {
        return String.format("%02d:%02d:%02d", seconds / 3600, seconds % 3600 / 60, seconds % 60);
    }
}
