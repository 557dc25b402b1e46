import { LinkSigner } from './signing';

/** Builds the absolute, signed URLs of reports on this server. */
export class ReportLinks {
  readonly signer: LinkSigner;

  constructor(
    secret: string,
    private readonly origin: () => string,
  ) {
    this.signer = new LinkSigner(secret);
  }

  /** The HTML report itself, viewable without a bearer token until the link expires. */
  view(id: string, now = Date.now()): string {
    const { exp, sig } = this.signer.sign('report', id, now);
    return `${this.origin()}/reports/${id}/view?exp=${exp}&sig=${sig}`;
  }

  /** One export of the report, signed like the view (same signature: the link grants the report in every format). */
  export(id: string, format: string, exp: number, sig: string): string {
    return `${this.origin()}/reports/${id}/export/${format}?exp=${exp}&sig=${encodeURIComponent(sig)}`;
  }

  /** The viewer page the client opens: the preview endpoint with the signed URL as `signed_url`. */
  preview(viewUrl: string): string {
    return `${this.origin()}/report-preview?signed_url=${encodeURIComponent(viewUrl)}`;
  }
}
