// The one phone rule of every form that takes a phone number (issue 20 item 1): registration,
// change phone, forgot by phone, the care site forms. Each form keeps the spec's messages (spec 1
// §5.2–§5.4, §5.7); whether the digits make a real number of their country is judged here, by
// libphonenumber-js with its full ("max") metadata: the national-number patterns of each country,
// not only the lengths ("min"), so "12", "112" or "1 555 0100 123" are refused in every form.
// Stored numbers are E.164 digits without the "+" ("15125550123").
import { parsePhoneNumberFromString } from "libphonenumber-js/max";
import { normalizePhone, type Rule } from "~/lib/validation";

/** E.164: at most 15 digits including the country code; also the forgot-by-phone maximum (§5.2). */
export const PHONE_MAX = 15;
export const PHONE_COUNTRY_MAX = 3;
/** §2.10, §9: the phone input defaults to the United States. */
export const DEFAULT_PHONE_COUNTRY = "1";

const DIGITS = /^[0-9]+$/;

/** The E.164 digits of a parsed number when it is a valid number of its country, else null. */
function validDigits(parse: () => ReturnType<typeof parsePhoneNumberFromString>) {
  try {
    const parsed = parse();
    return parsed?.isValid() ? parsed.number.slice(1) : null;
  } catch {
    // An unknown country calling code throws inside the library.
    return null;
  }
}

/**
 * A national number in the plan of a country calling code ("1" and "(512) 555-0123", "44" and
 * "07911 123456"): its E.164 digits when valid, else null. A trunk prefix is dropped.
 */
export function nationalToE164(callingCode: string, national: string): string | null {
  const code = normalizePhone(callingCode);
  const number = normalizePhone(national);
  if (!DIGITS.test(code) || !DIGITS.test(number) || code.length > PHONE_COUNTRY_MAX) return null;
  return validDigits(() => parsePhoneNumberFromString(number, { defaultCallingCode: code }));
}

/**
 * The valid E.164 readings of a number typed in one field with its country code ("15125550123",
 * "+44 7911 123456"). A 10-digit number is also read as a United States number without its
 * leading 1 (as the forms always accepted), and that reading comes first.
 */
export function phoneReadings(typed: string): string[] {
  const digits = normalizePhone(typed);
  if (!DIGITS.test(digits) || digits.length > PHONE_MAX) return [];
  const readings = [
    digits.length === 10 ? nationalToE164(DEFAULT_PHONE_COUNTRY, digits) : null,
    validDigits(() => parsePhoneNumberFromString(`+${digits}`)),
  ];
  return [...new Set(readings.filter((r): r is string => r !== null))];
}

/** Whether a number typed with its country code is a valid number. */
export const isValidPhone = (typed: string) => phoneReadings(typed).length > 0;

/** The number to store for one typed with its country code; the input when it has no reading. */
export const storedPhone = (typed: string) => phoneReadings(typed)[0] ?? normalizePhone(typed);

/**
 * Country code and national number as stored: E.164 digits. The schemas have judged the pair with
 * `nationalToE164` already; an invalid pair comes back as its digits run together.
 */
export const fullPhone = (callingCode: string, national: string) =>
  nationalToE164(callingCode, national) ?? normalizePhone(callingCode) + normalizePhone(national);

/** A rule for one field holding a number with its country code ("" passes: "required" decides). */
export const validPhone = (message: string): Rule => ({
  test: (value) => value === "" || isValidPhone(value),
  message,
});
