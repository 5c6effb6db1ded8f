import { describe, expect, it } from "vitest";
import { carrierTrackingUrl, checkShipment } from "./carriers";

describe("carrier tracking links", () => {
  it("builds each named carrier's page from the number, encoded", () => {
    expect(carrierTrackingUrl("ups", "1Z999AA10123456784")).toBe("https://www.ups.com/track?tracknum=1Z999AA10123456784");
    expect(carrierTrackingUrl("usps", "9400100000000000000000")).toBe("https://tools.usps.com/go/TrackConfirmAction?tLabels=9400100000000000000000");
    expect(carrierTrackingUrl("fedex", "123456789012")).toBe("https://www.fedex.com/fedextrack/?trknbr=123456789012");
    expect(carrierTrackingUrl("dhl", "JD014600006281234567")).toBe(
      "https://www.dhl.com/global-en/home/tracking/tracking-express.html?submit=1&tracking-id=JD014600006281234567",
    );
    expect(carrierTrackingUrl("ups", "A&B=C")).toBe("https://www.ups.com/track?tracknum=A%26B%3DC");
  });
});

describe("checkShipment", () => {
  it("normalises the number (spaces dropped, upper case) and stores the built link", () => {
    expect(checkShipment({ carrier: "UPS", trackingNumber: " 1z 999 aa1 0123456784 " })).toEqual({
      ok: true,
      shipment: { carrier: "ups", trackingNumber: "1Z999AA10123456784", trackingUrl: "https://www.ups.com/track?tracknum=1Z999AA10123456784" },
    });
  });

  it("keeps 'Other' with its own http(s) link, the number optional", () => {
    expect(checkShipment({ carrier: "other", trackingUrl: " https://parcel.example/t/42 " })).toEqual({
      ok: true,
      shipment: { carrier: "other", trackingNumber: null, trackingUrl: "https://parcel.example/t/42" },
    });
    expect(checkShipment({ carrier: "other", trackingNumber: "abc-123", trackingUrl: "http://parcel.example/?n=abc-123" })).toMatchObject({
      ok: true,
      shipment: { trackingNumber: "ABC-123", trackingUrl: "http://parcel.example/?n=abc-123" },
    });
  });

  it("allows no carrier, with or without a number, and then makes no link", () => {
    expect(checkShipment({})).toEqual({ ok: true, shipment: { carrier: null, trackingNumber: null, trackingUrl: null } });
    expect(checkShipment({ trackingNumber: "ABCD1234", trackingUrl: "https://ignored.example" })).toEqual({
      ok: true,
      shipment: { carrier: null, trackingNumber: "ABCD1234", trackingUrl: null },
    });
  });

  it.each([
    [{ carrier: "fedex" }, "trackingNumber", "Enter the tracking number: FedEx's tracking link is made from it."],
    [{ carrier: "dhl", trackingNumber: "12" }, "trackingNumber", "The tracking number is too short (4 characters at least)."],
    [{ carrier: "usps", trackingNumber: "9400\"><img>" }, "trackingNumber", "A tracking number has only letters, digits and hyphens."],
    [{ trackingNumber: "x".repeat(101) }, "trackingNumber", "The tracking number is too long (100 characters at most)."],
    [{ carrier: "other" }, "trackingUrl", "Enter the address of the carrier's tracking page (https://…)."],
    [{ carrier: "other", trackingUrl: "javascript:alert(1)" }, "trackingUrl", "The tracking address must start with https:// or http://."],
    [{ carrier: "other", trackingUrl: "data:text/html,hi" }, "trackingUrl", "The tracking address must start with https:// or http://."],
    [{ carrier: "other", trackingUrl: "parcel.example/track" }, "trackingUrl", "The tracking address must start with https:// or http://."],
    [{ carrier: "other", trackingUrl: `https://a.example/${"x".repeat(2000)}` }, "trackingUrl", "The tracking address is too long (2000 characters at most)."],
    [{ carrier: "royal-mail", trackingNumber: "AB123" }, "carrier", "Choose UPS, USPS, FedEx, DHL or Other."],
  ])("refuses %j", (form, field, message) => {
    expect(checkShipment(form)).toEqual({ ok: false, field, message });
  });
});
