package dev.cairn.api.nodes;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Range headers as RFC 9110 reads them: one range served, what cannot be one ignored, beyond the end refused. */
class ByteRangeTest {

    static ByteRange.Request parse(String header) {
        return ByteRange.parse(header, 10);
    }

    static ByteRange.Request part(long start, long end) {
        return new ByteRange.Request.Part(new ByteRange(start, end));
    }

    @Test
    void oneRangeIsServedAndCutToTheFile() {
        assertEquals(part(2, 5), parse("bytes=2-5"));
        assertEquals(part(8, 9), parse("bytes=8-"));
        assertEquals(part(7, 9), parse("bytes=-3"));
        assertEquals(part(0, 9), parse("bytes=-30"));
        assertEquals(part(5, 9), parse("bytes=5-100"));
    }

    @Test
    void aRangeBeyondTheEndIsUnsatisfiable() {
        assertEquals(new ByteRange.Request.Unsatisfiable(), parse("bytes=10-"));
        assertEquals(new ByteRange.Request.Unsatisfiable(), parse("bytes=12-20"));
        assertEquals(new ByteRange.Request.Unsatisfiable(), parse("bytes=-0"));
    }

    @Test
    void whatIsNotOneRangeIsIgnored() {
        assertEquals(new ByteRange.Request.Whole(), parse(null));
        assertEquals(new ByteRange.Request.Whole(), parse("bytes=0-1,4-5"));
        assertEquals(new ByteRange.Request.Whole(), parse("items=0-1"));
        assertEquals(new ByteRange.Request.Whole(), parse("bytes=5-2"));
        assertEquals(new ByteRange.Request.Whole(), parse("bytes=-"));
        assertEquals(new ByteRange.Request.Whole(), parse("bytes=99999999999999999999-"));
    }
}
