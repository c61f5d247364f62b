package dev.cairn.cli.client;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/**
 * One request on the JDK's {@link HttpURLConnection}, the transport of {@link CairnClient}: it starts in
 * a fraction of what the JDK's {@code HttpClient} takes to start (its selector thread, executors and a
 * TLS context that reads the whole trust store before the first request), and a command makes one or two
 * requests, so that start is most of what it would wait for.
 */
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

    /** A request body: its type, its length (declared up front, so it streams unbuffered) and its bytes. */
    record Body(String contentType, long length, Writer writer) {

        interface Writer {
            void writeTo(OutputStream out) throws IOException;
        }

        static Body json(String json) {
            byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
            return new Body("application/json", bytes.length, out -> out.write(bytes));
        }
    }

    private Light() {}

    /**
     * @param body      the body to send, or null for none
     * @param readLimit milliseconds to wait for each read of the answer; 0 waits as long as it takes
     */
    static Response send(
            String method, URI url, String token, String accept, Body body, int connectLimit, int readLimit)
            throws IOException {
        HttpURLConnection connection = (HttpURLConnection) url.toURL().openConnection();
        if ("PATCH".equals(method)) {
            // the plain connection refuses PATCH; the server takes a POST that says it stands for one
            connection.setRequestMethod("POST");
            connection.setRequestProperty("X-HTTP-Method-Override", "PATCH");
        } else {
            connection.setRequestMethod(method);
        }
        connection.setConnectTimeout(connectLimit);
        connection.setReadTimeout(readLimit);
        connection.setUseCaches(false);
        connection.setInstanceFollowRedirects(false);
        connection.setRequestProperty("Accept", accept);
        if (token != null) {
            connection.setRequestProperty("Authorization", "Bearer " + token);
        }
        if (body != null) {
            connection.setDoOutput(true);
            connection.setRequestProperty("Content-Type", body.contentType());
            connection.setFixedLengthStreamingMode(body.length());
            try (OutputStream out = connection.getOutputStream()) {
                body.writer().writeTo(out);
            }
        }
        int status = connection.getResponseCode();
        InputStream answer = status >= 400 ? connection.getErrorStream() : connection.getInputStream();
        return new Response(status, answer == null ? new ByteArrayInputStream(new byte[0]) : answer);
    }
}
