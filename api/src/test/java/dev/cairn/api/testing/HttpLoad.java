package dev.cairn.api.testing;

import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A small HTTP load driver for measuring the server's endpoints: {@code connections} threads each
 * send GET requests one after another on a kept-alive connection for {@code seconds} (after a
 * warm-up of a third as long), reading every body to its end; it prints requests per second,
 * latency percentiles and bytes per second. It uses the JDK alone, so it runs from its source:
 * {@snippet lang=sh :
 * java api/src/test/java/dev/cairn/api/testing/HttpLoad.java http://localhost:8080 "$TOKEN" \
 *     /api/v1/nodes/0190c1a2-… 16 20
 * }
 * Several paths, comma-separated, are requested in turn.
 */
public final class HttpLoad {

    private HttpLoad() {}

    public static void main(String[] args) throws Exception {
        if (args.length < 5) {
            System.err.println("usage: HttpLoad <base-url> <token> <path[,path…]> <connections> <seconds>");
            System.exit(2);
        }
        String base = args[0];
        String token = args[1];
        List<URI> uris =
                Arrays.stream(args[2].split(",")).map(p -> URI.create(base + p)).toList();
        int connections = Integer.parseInt(args[3]);
        int seconds = Integer.parseInt(args[4]);
        HttpClient client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10))
                .build();
        run(client, token, uris, connections, Math.max(1, seconds / 3), false);
        run(client, token, uris, connections, seconds, true);
    }

    private static void run(
            HttpClient client, String token, List<URI> uris, int connections, int seconds, boolean report)
            throws InterruptedException {
        long end = System.nanoTime() + Duration.ofSeconds(seconds).toNanos();
        AtomicLong bytes = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        List<long[]> latencies = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        long start = System.nanoTime();
        for (int t = 0; t < connections; t++) {
            long[] mine = new long[1 << 20];
            latencies.add(mine);
            int offset = t;
            threads.add(Thread.ofPlatform().start(() -> {
                byte[] sink = new byte[1 << 18];
                int n = 0;
                int i = offset;
                while (System.nanoTime() < end && n < mine.length - 1) {
                    URI uri = uris.get(i++ % uris.size());
                    HttpRequest request = HttpRequest.newBuilder(uri)
                            .header("Authorization", "Bearer " + token)
                            .GET()
                            .build();
                    long t0 = System.nanoTime();
                    try {
                        HttpResponse<InputStream> r = client.send(request, HttpResponse.BodyHandlers.ofInputStream());
                        long read = 0;
                        try (InputStream in = r.body()) {
                            for (int k; (k = in.read(sink)) > 0; ) {
                                read += k;
                            }
                        }
                        if (r.statusCode() >= 400) {
                            errors.incrementAndGet();
                        }
                        bytes.addAndGet(read);
                    } catch (Exception e) {
                        errors.incrementAndGet();
                    }
                    mine[++n] = System.nanoTime() - t0;
                }
                mine[0] = n;
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
        double elapsed = (System.nanoTime() - start) / 1e9;
        if (!report) {
            return;
        }
        long total = latencies.stream().mapToLong(l -> l[0]).sum();
        long[] all = new long[(int) total];
        int k = 0;
        for (long[] l : latencies) {
            System.arraycopy(l, 1, all, k, (int) l[0]);
            k += (int) l[0];
        }
        Arrays.sort(all);
        System.out.printf(
                Locale.ROOT,
                "%d connections, %.1f s: %d requests, %.0f req/s, p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms,"
                        + " %.1f MB/s, %d errors%n",
                connections,
                elapsed,
                total,
                total / elapsed,
                pct(all, 0.50),
                pct(all, 0.90),
                pct(all, 0.99),
                all.length == 0 ? 0 : all[all.length - 1] / 1e6,
                bytes.get() / elapsed / 1e6,
                errors.get());
    }

    private static double pct(long[] sorted, double p) {
        return sorted.length == 0 ? 0 : sorted[(int) Math.min(sorted.length - 1, Math.floor(p * sorted.length))] / 1e6;
    }
}
