import type { IBinaryData, IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { BINARY_ENCODING, NodeOperationError } from 'n8n-workflow';

import { invalidField, withItem } from '../../helpers/itemErrors';
import { assertEnum } from '../../helpers/validation';
import { isObject, readText } from '../../helpers/values';
import type { MultipartFile } from '../../transport/upload';
import { apiUpload } from '../../transport/upload';
import type { UploadLimitSetting } from './constants';
import { UPLOAD_LIMIT_SETTINGS, UPLOAD_LIMITS } from './constants';
import { toMultipartFields } from './resourceBody';

const PLAN_NAME: Record<Exclude<UploadLimitSetting, 'none'>, string> = {
	free: 'Free',
	paid: 'Paid',
};

function megabytes(bytes: number): string {
	return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

function fileNameOf(binary: IBinaryData, fromMetadata: string | undefined): string {
	const name = binary.fileName?.trim() || fromMetadata?.trim();
	if (name) return name;
	return binary.fileExtension ? `file.${binary.fileExtension}` : 'file';
}

/** The binary field's size in bytes: exact from the binary data service, or the length of inline data. */
async function sizeAndMetadata(
	this: IExecuteFunctions,
	binary: IBinaryData,
): Promise<{ size?: number; fileName?: string; mimeType?: string }> {
	if (!binary.id) return { size: Buffer.byteLength(binary.data, BINARY_ENCODING) };
	try {
		const metadata = await this.helpers.getBinaryMetadata(binary.id);
		return {
			size: Number.isFinite(metadata.fileSize) ? metadata.fileSize : undefined,
			fileName: metadata.fileName,
			mimeType: metadata.mimeType,
		};
	} catch {
		return {};
	}
}

/**
 * The file of an upload, validated: the binary field must exist and the file must fit the chosen upload
 * limit (checked here, before anything is sent). Stored binary data is streamed when the request is sent;
 * only data that is already inline in the item is sent from memory.
 */
export async function readUploadFile(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	itemIndex: number,
	propertyName: unknown,
	limit: UploadLimitSetting,
): Promise<MultipartFile> {
	const name = readText.call(this, propertyName, 'Input Binary Field', itemIndex);
	const available = Object.keys(items[itemIndex]?.binary ?? {});
	if (!available.includes(name)) {
		const found = available.length
			? `it has ${available.map((key) => `"${key}"`).join(', ')}`
			: 'it has no binary data at all';
		throw invalidField.call(
			this,
			'Input Binary Field',
			`the item has no binary field "${name}" (${found})`,
			itemIndex,
		);
	}
	const binary = this.helpers.assertBinaryData(itemIndex, name);
	const { size, fileName, mimeType } = await sizeAndMetadata.call(this, binary);
	const file: MultipartFile = {
		fileName: fileNameOf(binary, fileName),
		mimeType: binary.mimeType || mimeType || 'application/octet-stream',
		size,
		open: async () =>
			binary.id
				? await this.helpers.getBinaryStream(binary.id)
				: Buffer.from(binary.data, BINARY_ENCODING),
	};

	if (limit !== 'none' && size !== undefined && size > UPLOAD_LIMITS[limit]) {
		const plan = PLAN_NAME[limit];
		throw new NodeOperationError(
			this.getNode(),
			withItem(
				`The file "${file.fileName}" is ${megabytes(size)}, over the ${megabytes(UPLOAD_LIMITS[limit])} upload limit of the ${plan} plan`,
				itemIndex,
			),
			{
				itemIndex,
				description:
					limit === 'free'
						? 'Nothing was uploaded. If your account is on a paid plan, set Options > Upload Size Limit to "Paid Plan (500 MB)".'
						: 'Nothing was uploaded. The service refuses files over 500 MB (413 file_too_large).',
			},
		);
	}
	return file;
}

/**
 * Sends `body` with the file of the "Input Binary Field" parameter as a multipart upload (docs/api-contract.md §6), after checking
 * the file against Options > Upload Size Limit.
 */
export async function uploadResource(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	itemIndex: number,
	method: 'POST' | 'PUT',
	path: string,
	body: IDataObject,
): Promise<IDataObject> {
	const options = this.getNodeParameter('options', itemIndex, {}) as unknown;
	const uploadLimit = isObject(options) ? options.uploadLimit : undefined;
	const limit =
		uploadLimit === undefined
			? 'free'
			: (assertEnum.call(
					this,
					uploadLimit,
					UPLOAD_LIMIT_SETTINGS,
					'Upload Size Limit',
					itemIndex,
				) as UploadLimitSetting);
	const binaryPropertyName = this.getNodeParameter('binaryPropertyName', itemIndex);
	const file = await readUploadFile.call(this, items, itemIndex, binaryPropertyName, limit);
	return await apiUpload.call(this, method, path, toMultipartFields(body), file, itemIndex);
}
