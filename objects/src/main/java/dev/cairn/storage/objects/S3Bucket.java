package dev.cairn.storage.objects;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.Delete;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.MultipartUpload;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * The one class that speaks to S3 (through the AWS SDK for Java v2 and the JDK's URL connection): the few
 * requests a container in a bucket needs, with the SDK's retries (exponential backoff) and its errors
 * turned into {@link IOException}s that name the bucket, the request and the key.
 *
 * <p>A conditional create ({@code If-None-Match: *}) carries this process's writer id in the object's
 * metadata: when its first try landed but the answer was lost, the retry is refused (412), and the id
 * tells that the object is ours.
 */
final class S3Bucket implements AutoCloseable {

    /** Files up to this size go up in one PUT; larger ones in parts of {@link #PART} bytes. */
    static final long SINGLE_PUT_MAX = 64L << 20;

    static final long PART = 32L << 20;

    private static final String WRITER = "cairn-writer";

    /** An object of a listing. */
    record Listed(String key, long size, Instant lastModified) {}

    /** What a HEAD tells. */
    record Head(long size, Instant lastModified, String writer) {}

    private final S3Location location;
    private final S3Client s3;

    S3Bucket(S3Location location) {
        this.location = location;
        S3ClientBuilder b = S3Client.builder()
                .httpClient(UrlConnectionHttpClient.builder()
                        .connectionTimeout(location.timeout())
                        .socketTimeout(location.timeout())
                        .build())
                .region(Region.of(location.region()))
                .forcePathStyle(location.pathStyle())
                // Checksums only where S3 requires them: the keys are SHA-256 of the content and validate()
                // rehashes, and servers that are not AWS differ in the trailing checksums they accept.
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.standardRetryStrategy().toBuilder()
                        .maxAttempts(location.maxAttempts())
                        // every request is retried up to maxAttempts: a token bucket that stops retrying
                        // after a burst of failures would turn a flaky minute into lost operations
                        .circuitBreakerEnabled(false)
                        .build()))
                .credentialsProvider(
                        location.accessKey() == null
                                ? DefaultCredentialsProvider.builder().build()
                                : StaticCredentialsProvider.create(
                                        AwsBasicCredentials.create(location.accessKey(), location.secretKey())));
        if (location.endpoint() != null) {
            b.endpointOverride(location.endpoint());
        }
        this.s3 = b.build();
    }

    /** {@code s3://bucket/prefix}, for messages. */
    String describe(String prefix) {
        return "s3://" + location.bucket() + "/" + prefix;
    }

    private IOException failure(String request, String key, SdkException e) {
        return new BucketUnavailableException(
                request + " " + describe(key) + " failed"
                        + (location.maxAttempts() > 1 ? " (tried " + location.maxAttempts() + " times)" : "") + ": "
                        + e.getMessage(),
                e);
    }

    private static boolean notFound(SdkException e) {
        return e instanceof S3Exception s && s.statusCode() == 404;
    }

    /** The whole object, or null when there is none. */
    byte[] get(String key) throws IOException {
        try {
            return s3.getObjectAsBytes(r -> r.bucket(location.bucket()).key(key))
                    .asByteArray();
        } catch (SdkException e) {
            if (notFound(e)) {
                return null;
            }
            throw failure("GET", key, e);
        }
    }

    /** A stream of the object, or null when there is none. */
    InputStream open(String key) throws IOException {
        try {
            return s3.getObject(r -> r.bucket(location.bucket()).key(key));
        } catch (SdkException e) {
            if (notFound(e)) {
                return null;
            }
            throw failure("GET", key, e);
        }
    }

    /** A stream of {@code length} bytes of an object from {@code from}; a missing object is a {@link NoSuchFileException}. */
    InputStream openRange(String key, long from, long length) throws IOException {
        if (length == 0) {
            return InputStream.nullInputStream();
        }
        try {
            ResponseInputStream<GetObjectResponse> in = s3.getObject(
                    r -> r.bucket(location.bucket()).key(key).range("bytes=" + from + "-" + (from + length - 1)));
            return in;
        } catch (SdkException e) {
            if (notFound(e)) {
                throw new NoSuchFileException(describe(key));
            }
            throw failure("GET", key, e);
        }
    }

    /**
     * Reads exactly {@code buf.remaining()} bytes of an object from {@code from}, with one ranged GET (and
     * its retries, which a connection dropped in the middle of the body needs too).
     */
    void readRange(String key, long from, ByteBuffer buf) throws IOException {
        int want = buf.remaining();
        int start = buf.position();
        for (int attempt = 1; ; attempt++) {
            buf.position(start);
            try (InputStream in = openRange(key, from, want)) {
                byte[] chunk = new byte[(int) Math.min(want, 1 << 16)];
                while (buf.hasRemaining()) {
                    int n = in.read(chunk, 0, Math.min(chunk.length, buf.remaining()));
                    if (n < 0) {
                        throw new EOFException(describe(key) + " ends before byte " + (from + want));
                    }
                    buf.put(chunk, 0, n);
                }
                return;
            } catch (NoSuchFileException | EOFException | BucketUnavailableException e) {
                throw e;
            } catch (IOException | SdkException e) {
                // the body broke off: the SDK retries a request, not a read of its body
                if (attempt >= location.maxAttempts()) {
                    throw new BucketUnavailableException(
                            "GET " + describe(key) + " broke off " + attempt + " times: " + e.getMessage(), e);
                }
            }
        }
    }

    /** What a HEAD tells, or null when there is no such object. */
    Head head(String key) throws IOException {
        try {
            HeadObjectResponse h =
                    s3.headObject(r -> r.bucket(location.bucket()).key(key));
            return new Head(h.contentLength(), h.lastModified(), h.metadata().get(WRITER));
        } catch (SdkException e) {
            if (notFound(e)) {
                return null;
            }
            throw failure("HEAD", key, e);
        }
    }

    void put(String key, byte[] content) throws IOException {
        try {
            s3.putObject(r -> r.bucket(location.bucket()).key(key), RequestBody.fromBytes(content));
        } catch (SdkException e) {
            throw failure("PUT", key, e);
        }
    }

    /** Writes the object, whether or not one exists, as {@code writer}'s. */
    void put(String key, byte[] content, String writer) throws IOException {
        try {
            s3.putObject(
                    r -> r.bucket(location.bucket()).key(key).metadata(Map.of(WRITER, writer)),
                    RequestBody.fromBytes(content));
        } catch (SdkException e) {
            throw failure("PUT", key, e);
        }
    }

    /**
     * Creates the object unless one exists; says whether it is this writer's (created now, or by an
     * earlier try of this call whose answer was lost).
     */
    boolean createIfAbsent(String key, byte[] content, String writer) throws IOException {
        try {
            s3.putObject(
                    r -> r.bucket(location.bucket()).key(key).ifNoneMatch("*").metadata(Map.of(WRITER, writer)),
                    RequestBody.fromBytes(content));
            return true;
        } catch (SdkException e) {
            if (preconditionFailed(e)) {
                return ours(key, writer);
            }
            throw failure("PUT (if absent)", key, e);
        }
    }

    private static boolean preconditionFailed(SdkException e) {
        // 409: a concurrent conditional write of the same key is in progress (AWS)
        return e instanceof S3Exception s && (s.statusCode() == 412 || s.statusCode() == 409);
    }

    private boolean ours(String key, String writer) throws IOException {
        Head h = head(key);
        return h != null && writer.equals(h.writer());
    }

    /**
     * Uploads {@code size} bytes of a local file, streaming (in parts above {@link #SINGLE_PUT_MAX}); with
     * {@code writer}, only if no such object exists, saying whether it is this writer's.
     */
    boolean putFile(String key, Path file, long size, String writer) throws IOException {
        try {
            if (size <= SINGLE_PUT_MAX) {
                s3.putObject(
                        r -> {
                            r.bucket(location.bucket()).key(key);
                            if (writer != null) {
                                r.ifNoneMatch("*").metadata(Map.of(WRITER, writer));
                            }
                        },
                        RequestBody.fromContentProvider(
                                () -> FileSlice.open(file, 0, size), size, "application/octet-stream"));
                return true;
            }
            return putInParts(key, file, size, writer);
        } catch (SdkException e) {
            if (writer != null && preconditionFailed(e)) {
                return ours(key, writer);
            }
            throw failure("PUT", key, e);
        }
    }

    private boolean putInParts(String key, Path file, long size, String writer) throws IOException {
        String upload = s3.createMultipartUpload(r -> {
                    r.bucket(location.bucket()).key(key);
                    if (writer != null) {
                        r.metadata(Map.of(WRITER, writer));
                    }
                })
                .uploadId();
        boolean done = false;
        try {
            List<CompletedPart> parts = new ArrayList<>();
            int number = 1;
            for (long at = 0; at < size; at += PART, number++) {
                long from = at;
                long length = Math.min(PART, size - at);
                int n = number;
                String etag = s3.uploadPart(
                                r -> r.bucket(location.bucket())
                                        .key(key)
                                        .uploadId(upload)
                                        .partNumber(n),
                                RequestBody.fromContentProvider(
                                        () -> FileSlice.open(file, from, length), length, "application/octet-stream"))
                        .eTag();
                parts.add(CompletedPart.builder().partNumber(n).eTag(etag).build());
            }
            try {
                s3.completeMultipartUpload(r -> {
                    r.bucket(location.bucket()).key(key).uploadId(upload).multipartUpload(m -> m.parts(parts));
                    if (writer != null) {
                        r.ifNoneMatch("*");
                    }
                });
            } catch (S3Exception e) {
                if (e.statusCode() != 404) {
                    throw e;
                }
                // NoSuchUpload: a try whose answer was lost completed it; the object tells whether it is ours
                Head h = head(key);
                if (h == null || h.size() != size || (writer != null && !writer.equals(h.writer()))) {
                    throw e;
                }
            }
            done = true;
            return true;
        } finally {
            if (!done) {
                try {
                    s3.abortMultipartUpload(
                            r -> r.bucket(location.bucket()).key(key).uploadId(upload));
                } catch (SdkException ignored) {
                    // left for cleanStorage, which aborts stale uploads
                }
            }
        }
    }

    /** Deletes an object; a missing one is fine. */
    void delete(String key) throws IOException {
        try {
            s3.deleteObject(r -> r.bucket(location.bucket()).key(key));
        } catch (SdkException e) {
            if (!notFound(e)) {
                throw failure("DELETE", key, e);
            }
        }
    }

    /** Deletes objects, a thousand per request. */
    void deleteAll(Collection<String> keys) throws IOException {
        List<ObjectIdentifier> batch = new ArrayList<>();
        for (String k : keys) {
            batch.add(ObjectIdentifier.builder().key(k).build());
            if (batch.size() == 1000) {
                deleteBatch(batch);
                batch.clear();
            }
        }
        if (!batch.isEmpty()) {
            deleteBatch(batch);
        }
    }

    private void deleteBatch(List<ObjectIdentifier> batch) throws IOException {
        try {
            var out = s3.deleteObjects(r -> r.bucket(location.bucket())
                    .delete(Delete.builder().objects(batch).quiet(true).build()));
            if (out.hasErrors() && !out.errors().isEmpty()) {
                throw new BucketUnavailableException(
                        "DELETE of " + out.errors().size() + " objects in "
                                + describe("") + " failed, first "
                                + out.errors().get(0).key() + ": "
                                + out.errors().get(0).message(),
                        null);
            }
        } catch (SdkException e) {
            throw failure("DELETE (many)", batch.get(0).key(), e);
        }
    }

    /** Lists the objects whose keys start with {@code prefix}, after {@code startAfter} (or all: null), in key order. */
    void list(String prefix, String startAfter, Consumer<Listed> each) throws IOException {
        try {
            for (S3Object o : s3.listObjectsV2Paginator(r -> {
                        r.bucket(location.bucket()).prefix(prefix);
                        if (startAfter != null) {
                            r.startAfter(startAfter);
                        }
                    })
                    .contents()) {
                each.accept(new Listed(o.key(), o.size(), o.lastModified()));
            }
        } catch (SdkException e) {
            throw failure("LIST", prefix, e);
        }
    }

    /** Aborts multipart uploads under {@code prefix} started before {@code before}: leftovers of crashed writers. */
    int abortUploadsBefore(String prefix, Instant before) throws IOException {
        int aborted = 0;
        try {
            for (MultipartUpload u : s3.listMultipartUploadsPaginator(
                            r -> r.bucket(location.bucket()).prefix(prefix))
                    .uploads()) {
                if (u.initiated() != null && u.initiated().isBefore(before)) {
                    s3.abortMultipartUpload(
                            r -> r.bucket(location.bucket()).key(u.key()).uploadId(u.uploadId()));
                    aborted++;
                }
            }
        } catch (SdkException e) {
            throw failure("LIST uploads", prefix, e);
        }
        return aborted;
    }

    @Override
    public void close() {
        s3.close();
    }
}
