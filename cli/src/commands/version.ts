import { BaseCommand } from '../base-command.js';

export default class Version extends BaseCommand {
  static override summary = "Show pingmon's version, as `pingmon --version` does";

  async run(): Promise<void> {
    await this.parse(Version);
    this.log(this.config.userAgent);
  }
}
