import { Readable } from 'node:stream';
import {
  SETTINGS_ERROR_CODES,
  SETTINGS_MESSAGES,
  TERMS_FILES,
  TERMS_MAX_CHARS,
  type TermsFile,
  type TermsLinks,
  type TermsPolicy,
  type TermsPolicyBody,
} from '@fleetdeck/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { notFound } from '../../errors.js';
import {
  deleteConfigValue,
  readConfigValue,
  writeConfigValue,
} from '../../repositories/settings.repository.js';
import type { BlobStore } from '../../storage/blob-store.js';

/** Where a document's text lives in the blob store. */
const blobKeyOf = (file: TermsFile) => `terms/${file}.html`;
/** The deployment_config row saying the document exists (its value: when it was saved). */
const configNameOf = (file: TermsFile) => `terms.${file}`;

/** Whether a document is HTML (has a tag); plain text is served as text/plain. */
export function looksLikeHtml(content: string): boolean {
  return /<[a-z!/][^>]*>/i.test(content);
}

async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Privacy Policy and Terms of Use: the text is a file in the blob store, served publicly by
 * `GET /v1/terms_policy/<file>` (sandboxed, see the route); the login page links to it.
 */
export class TermsService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly store: BlobStore,
    private readonly publicUrl: string,
    private readonly clock: () => number = Date.now,
  ) {}

  /** The public URL of a stored document ('' when none), versioned so caches see edits. */
  private async urlOf(file: TermsFile): Promise<string> {
    const row = await readConfigValue(this.db, configNameOf(file));
    return row ? `${this.publicUrl}/v1/terms_policy/${file}?v=${row.value}` : '';
  }

  /** Saves the given documents; the URLs of both afterwards. */
  async save(
    body: TermsPolicyBody,
  ): Promise<{ privacy_policy_file_url: string; terms_of_use_file_url: string }> {
    for (const file of TERMS_FILES) {
      const content = body[file];
      if (content === undefined) continue;
      const now = this.clock();
      // Put first (atomic rename), then the row: a reader never sees a row without its file.
      await this.store.put(
        blobKeyOf(file),
        Readable.from([Buffer.from(content, 'utf8')]),
        TERMS_MAX_CHARS * 4,
      );
      await writeConfigValue(this.db, configNameOf(file), String(now), Math.floor(now / 1000));
    }
    return {
      privacy_policy_file_url: await this.urlOf('privacy_policy'),
      terms_of_use_file_url: await this.urlOf('terms_of_use'),
    };
  }

  /** Both documents (or one): content and URL, empty when none is stored. */
  async get(only?: TermsFile): Promise<TermsPolicy> {
    const result: TermsPolicy = {};
    for (const file of TERMS_FILES) {
      if (only !== undefined && only !== file) continue;
      const stored = await this.read(file);
      result[file] = { content: stored?.content ?? '', file_url: await this.urlOf(file) };
    }
    return result;
  }

  /** A stored document, or undefined. */
  async read(file: TermsFile): Promise<{ content: string; savedAt: number } | undefined> {
    const row = await readConfigValue(this.db, configNameOf(file));
    if (!row) return undefined;
    if ((await this.store.size(blobKeyOf(file))) === undefined) return undefined;
    return { content: await readAll(this.store.read(blobKeyOf(file))), savedAt: Number(row.value) };
  }

  /** Deletes a document; 404 when there is none. */
  async delete(file: TermsFile): Promise<void> {
    const existed = await deleteConfigValue(this.db, configNameOf(file));
    if (!existed)
      throw notFound(SETTINGS_MESSAGES.termsFileNotFound, SETTINGS_ERROR_CODES.termsFileNotFound);
    await this.store.delete(blobKeyOf(file));
  }

  /**
   * The public answer: links to both documents and, when `file` is given, that document for the
   * /privacy-policy and /terms-of-service pages (null when it has not been published).
   */
  async links(file?: TermsFile): Promise<TermsLinks> {
    const [privacy, terms, stored] = await Promise.all([
      this.urlOf('privacy_policy'),
      this.urlOf('terms_of_use'),
      file === undefined ? undefined : this.read(file),
    ]);
    const links: TermsLinks = {
      privacy_policy_file_url: privacy || null,
      terms_of_use_file_url: terms || null,
    };
    if (file === undefined) return links;
    return {
      ...links,
      document: stored
        ? {
            file,
            content: stored.content,
            file_url: (file === 'privacy_policy' ? privacy : terms) || '',
            format: looksLikeHtml(stored.content) ? 'html' : 'text',
          }
        : null,
    };
  }
}
