package dev.cairn.cli.client;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.LongConsumer;

/** One request on the JDK's {@link HttpURLConnection}: the light transport of {@link CairnClient}. */
final class Light {

    /** A status and the body as it comes (the error body for 4xx and 5xx); the caller closes it. */
    record Response(int status, InputStream body) {

        /** The whole body as text, closed. */
        String text() {
            try (InputStream in = body) {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                return "";
            }
        }
    }

    private Light() {}

    /**
     * @param json      a JSON body to send, or null for none
     * @param readLimit milliseconds to wait for each read of the answer; 0 waits as long as it takes
     */
    static Response send(
            String method, URI url, String token, String accept, String json, int connectLimit, int readLimit)
            throws IOException {
        HttpURLConnection connection = (HttpURLConnection) url.toURL().openConnection();
        connection.setRequestMethod(method);
        connection.setConnectTimeout(connectLimit);
        connection.setReadTimeout(readLimit);
        connection.setUseCaches(false);
        connection.setInstanceFollowRedirects(false);
        connection.setRequestProperty("Accept", accept);
        if (token != null) {
            connection.setRequestProperty("Authorization", "Bearer " + token);
        }
        if (json != null) {
            byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
            connection.setDoOutput(true);
            connection.setRequestProperty("Content-Type", "application/json");
            connection.setFixedLengthStreamingMode(bytes.length);
            try (OutputStream out = connection.getOutputStream()) {
                out.write(bytes);
            }
        }
        return answer(connection);
    }

    /**
     * POSTs {@code file} as the raw body, streamed with its length declared (never held in memory), telling
     * {@code sent} how many bytes have gone; then waits for the answer as long as it takes.
     */
    static Response upload(URI url, String token, String accept, Path file, LongConsumer sent, int connectLimit)
            throws IOException {
        HttpURLConnection connection = (HttpURLConnection) url.toURL().openConnection();
        connection.setRequestMethod("POST");
        connection.setConnectTimeout(connectLimit);
        connection.setReadTimeout(0);
        connection.setUseCaches(false);
        connection.setInstanceFollowRedirects(false);
        connection.setRequestProperty("Accept", accept);
        if (token != null) {
            connection.setRequestProperty("Authorization", "Bearer " + token);
        }
        connection.setDoOutput(true);
        connection.setRequestProperty("Content-Type", "application/octet-stream");
        connection.setFixedLengthStreamingMode(Files.size(file));
        byte[] buffer = new byte[1 << 16];
        long total = 0;
        try (InputStream in = Files.newInputStream(file);
                OutputStream out = connection.getOutputStream()) {
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                out.write(buffer, 0, n);
                total += n;
                sent.accept(total);
            }
        }
        return answer(connection);
    }

    private static Response answer(HttpURLConnection connection) throws IOException {
        int status = connection.getResponseCode();
        InputStream body = status >= 400 ? connection.getErrorStream() : connection.getInputStream();
        return new Response(status, body == null ? new ByteArrayInputStream(new byte[0]) : body);
    }
}
