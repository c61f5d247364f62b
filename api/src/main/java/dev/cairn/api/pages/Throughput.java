package dev.cairn.api.pages;

import java.util.ArrayList;
import java.util.List;

/**
 * Processes ended per minute, drawn as bars by the page itself (an SVG of {@link #WIDTH} by
 * {@link #HEIGHT}): one bar a minute, the oldest on the left, scaled to the busiest minute.
 */
record Throughput(List<Bar> bars, long busiest) {

    static final int WIDTH = 600;
    static final int HEIGHT = 80;

    /** @param minutesAgo how long ago the minute began */
    record Bar(double x, double y, double width, double height, long count, int minutesAgo) {}

    static Throughput of(long[] perMinute) {
        long busiest = 1;
        for (long n : perMinute) {
            busiest = Math.max(busiest, n);
        }
        double width = (double) WIDTH / perMinute.length;
        List<Bar> bars = new ArrayList<>(perMinute.length);
        for (int i = 0; i < perMinute.length; i++) {
            double h = (double) HEIGHT * perMinute[i] / busiest;
            bars.add(new Bar(i * width, HEIGHT - h, Math.max(1, width - 1), h, perMinute[i], perMinute.length - i));
        }
        return new Throughput(bars, busiest);
    }
}
