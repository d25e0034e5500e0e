// An HTTP client of the device API (DEVICE-API.md), used by the simulator, the ingest benchmark and
// the tests. Nothing here knows the portal's code: only the contract.
export type Settings = {
  P_P: number;
  P_T: number;
  I_P: number;
  I_T: number;
  E_P: number;
  E_T: number;
  O_F: 0 | 1;
};
export type Prescription = Settings & { mode: "Auto" | "Manual"; cycles: number };
/** The usual prescription of the simulator and the tests: five Auto cycles at ±40 cmH2O. */
export const STANDARD_PRESCRIPTION: Prescription = {
  mode: "Auto",
  cycles: 5,
  P_P: 0,
  P_T: 10,
  I_P: 40,
  I_T: 20,
  E_P: -40,
  E_T: 15,
  O_F: 1,
};
export type CycleRecord = {
  n: number;
  P_IP: number;
  E_V: number;
  P_F: number;
  SPO2: number | null;
  O_F: 0 | 1;
};
export type TherapyRecord = {
  eventId: string;
  startedAt: string;
  mode: "Auto" | "Manual";
  delivered: Settings;
  cycles: CycleRecord[];
};
export type Transmission = {
  sentAt: string;
  hmr: number;
  prescription: Prescription;
  therapies: TherapyRecord[];
};

export type Accepted = {
  transmissionId: string;
  therapiesAccepted: number;
  therapiesDuplicate: number;
};

export class DeviceApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(`device API answered ${status}: ${body.slice(0, 300)}`);
  }
}

export class DeviceClient {
  constructor(
    readonly baseUrl: string,
    readonly serial: string,
    private readonly token: string,
  ) {}

  private async post(path: string, body: unknown) {
    const response = await fetch(
      `${this.baseUrl}/api/v1/devices/${encodeURIComponent(this.serial)}/${path}`,
      {
        method: "POST",
        headers: { Authorization: `Bearer ${this.token}`, "Content-Type": "application/json" },
        body: JSON.stringify(body),
      },
    );
    const text = await response.text();
    if (response.status !== 202) throw new DeviceApiError(response.status, text);
    return JSON.parse(text) as unknown;
  }

  sendTransmission(transmission: Transmission) {
    return this.post("transmissions", transmission) as Promise<Accepted>;
  }

  sendStats(records: Record<string, unknown>[]) {
    return this.post("stats", records) as Promise<{ accepted: number }>;
  }
}
